import { expect } from 'vitest';
import { DEMO_ACCOUNTS, seedDemoAccounts } from '../local/seed/demo-accounts.ts';
import { hashDistance, NEAR_DUPLICATE_BITS } from '../src/lib/media/visual-fingerprint.ts';
import { insertDemoAds } from './support/demo-ads.ts';
import { journeyWithLibrary } from './support/journey.ts';
import { signIn } from './support/signed-in.ts';

const ADMIN = DEMO_ACCOUNTS.find((account) => account.role === 'admin')!;
const shots = process.env.BACKFILL_SCREENSHOTS;

/** Three ads of three colours, each stored with the fingerprint the seeder and the upload write (sharp, from the original). */
const journey = journeyWithLibrary(async (stack) => {
  await seedDemoAccounts(stack.db);
  return insertDemoAds(stack, 3, { brandPrefix: 'Backfill', colours: ['#2e6fd8', '#d7263d', '#3a9d5d'] });
});

interface Stored {
  id: string;
  visual_hash: string | null;
  colour_swatches: string[] | null;
  near_duplicate_of: string | null;
}

journey('Fingerprint images fingerprints, in the browser, the ads that lost theirs, as the upload would have, and leaves the others alone', async ({ page, stack, library }) => {
  const stored = async () =>
    (
      await stack.db.query<Stored>(
        'select id, visual_hash::text, colour_swatches, near_duplicate_of from public.ads where id = any($1) order by created_at desc, id desc',
        [library.adIds],
      )
    ).rows;
  const before = await stored();
  expect(before.every((ad) => ad.visual_hash !== null && (ad.colour_swatches ?? []).length > 0)).toBe(true);
  const lost = library.adIds.slice(0, 2);
  await stack.db.query(
    `update public.ads set visual_hash = null, colour_histogram = null, dominant_colours = null where id = any($1)`,
    [lost],
  );
  expect((await stored()).filter((ad) => ad.visual_hash === null).map((ad) => ad.id)).toEqual(lost);
  const { rows: missing } = await stack.db.query<{ n: number }>('select count(*)::int as n from public.ads where visual_hash is null');
  expect(missing[0]!.n).toBe(2);

  const origin = new URL(stack.url).origin;
  const elsewhere: string[] = [];
  page.context().on('request', (request) => {
    const url = request.url();
    if (!url.startsWith('data:') && !url.startsWith('blob:') && new URL(url).origin !== origin) elsewhere.push(url);
  });

  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, stack, ADMIN);
  await page.goto('/admin');
  const card = page.getByRole('region', { name: 'Fingerprint images' });
  await card.getByRole('button', { name: 'Fingerprint images' }).click();
  const bar = card.getByRole('progressbar', { name: 'Images fingerprinted' });
  await bar.waitFor();
  expect(await bar.getAttribute('aria-valuemax')).toBe('2');
  await card.getByText('Done: 2 images fingerprinted.').waitFor({ timeout: 60_000 });
  expect(await bar.getAttribute('aria-valuenow')).toBe('2');
  expect(await card.getByText('2 of 2 images fingerprinted').count()).toBe(1);
  if (shots) {
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}/fingerprint-backfill-390.png` });
  }

  // Read from the 960 display image in Chromium, the fingerprint is the original's within the near-duplicate rule,
  // and it matches the same colours; the third ad kept its own.
  const after = await stored();
  for (const [index, ad] of after.entries()) {
    const was = before[index]!;
    expect(ad.id).toBe(was.id);
    expect(ad.visual_hash).not.toBeNull();
    expect(hashDistance(ad.visual_hash!, was.visual_hash!)).toBeLessThanOrEqual(NEAR_DUPLICATE_BITS);
    expect(ad.colour_swatches).toEqual(was.colour_swatches);
    expect(ad.near_duplicate_of).toBeNull();
  }
  expect(after[2]!.visual_hash).toBe(before[2]!.visual_hash);

  // Nothing is left: a new run says so.
  await card.getByRole('button', { name: 'Fingerprint images' }).click();
  await card.getByText('Every ad has its fingerprint.').waitFor();
  expect(elsewhere).toEqual([]);
}, 180_000);
