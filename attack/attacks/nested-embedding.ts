import type { Attack, AttackTarget } from '../attack.ts';

/** An anonymous read of rest/v1, with its status, size and time. */
async function read(target: AttackTarget, query: string): Promise<{ status: number; bytes: number; ms: number; code: string | null }> {
  const started = performance.now();
  const response = await fetch(`${target.url}/rest/v1/${query}`, { headers: { apikey: target.anonKey } });
  const body = Buffer.from(await response.arrayBuffer());
  let code: string | null = null;
  try {
    code = (JSON.parse(body.toString()) as { code?: string }).code ?? null;
  } catch {
    // A large answer is not parsed for a code.
  }
  return { status: response.status, bytes: body.byteLength, ms: performance.now() - started, code };
}

/** Each level embeds a category's ads, and each ad its category again: the rows multiply by the ads per category. */
const nested = (levels: number): string => {
  let select = 'id';
  for (let level = 0; level < levels; level += 1) select = `id,ads_with_flags(*,categories(${select}))`;
  return `categories?select=${select}`;
};

const attacks: Attack[] = [
  {
    name: 'anonymous nested embedding (categories, their ads, their category, its ads ... 3 and 4 levels), and a trivial read sent meanwhile',
    before: 'depth 3 returned 17.6 MB; depth 4 made PostgreSQL try to allocate about 300 MB; a trivial read waited 1.1 s',
    async run(target) {
      const results: string[] = [];
      let held = true;
      for (const levels of [3, 4]) {
        const heavy = read(target, nested(levels));
        await new Promise((resolve) => setTimeout(resolve, 50));
        const trivial = await read(target, 'brands?select=id&limit=1');
        const answer = await heavy;
        results.push(`depth ${levels}: ${answer.status} ${answer.code ?? ''} ${(answer.bytes / 1024).toFixed(1)} KB in ${answer.ms.toFixed(0)} ms, the trivial read ${trivial.ms.toFixed(0)} ms`);
        held &&= answer.status === 500 && answer.code === '54000' && answer.bytes < 4096 && trivial.status === 200 && trivial.ms < 500;
      }
      return { now: results.join('; '), held };
    },
  },
];

export default attacks;
