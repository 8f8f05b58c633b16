import type { Attack, AttackTarget } from '../attack.ts';

/** A brand logo of the demo library: an image in a public bucket, as anyone can name one. */
async function someLogo(target: AttackTarget): Promise<string> {
  const response = await fetch(`${target.url}/rest/v1/brands?select=logo_path&logo_path=not.is.null&limit=1`, { headers: { apikey: target.anonKey } });
  const [brand] = (await response.json()) as Array<{ logo_path: string }>;
  if (!brand) throw new Error('The demo library has no brand logo');
  return brand.logo_path;
}

const attacks: Attack[] = [
  {
    name: 'anonymous render/image of one logo at 20 made-up qualities and widths, then the same product variant 20 times',
    before: 'each new quality re-encoded (AVIF 0.45 s of CPU a request) and defeated every cache',
    async run(target) {
      const logo = await someLogo(target);
      const url = (query: string) => `${target.url}/storage/v1/render/image/public/brand-logos/${logo}?${query}`;
      const started = performance.now();
      const madeUp: number[] = [];
      for (let i = 0; i < 20; i += 1) {
        const response = await fetch(url(i % 2 === 0 ? `width=480&format=avif&quality=${50 + i}` : `width=${300 + i}`));
        await response.body?.cancel();
        madeUp.push(response.status);
      }
      const refusedMs = performance.now() - started;
      const times: number[] = [];
      for (let i = 0; i < 20; i += 1) {
        const at = performance.now();
        const response = await fetch(url('width=480&format=webp'));
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`The product's variant answered ${response.status}`);
        times.push(performance.now() - at);
      }
      const later = times.slice(1).sort((a, b) => a - b);
      const median = later[Math.floor(later.length / 2)]!;
      return {
        now: `${madeUp.filter((status) => status === 400).length} of 20 made-up renders refused with 400 in ${refusedMs.toFixed(0)} ms; the product's variant ${times[0]!.toFixed(0)} ms first, ${median.toFixed(1)} ms median after`,
        held: madeUp.every((status) => status === 400) && median < 50,
      };
    },
  },
];

export default attacks;
