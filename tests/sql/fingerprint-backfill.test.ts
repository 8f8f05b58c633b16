import { beforeAll, describe, expect, it } from 'vitest';
import { anon, expectPgError, queryAs, userActor, type Actor } from '../support/acting.ts';
import { describeOnEngines } from '../support/engines.ts';
import { newAds, newBrand, newCategory, newPersonas, type Personas, type TestAd } from '../support/factories.ts';

/** The admin's fingerprint backfill: its worklist and its batched store. */

interface Worklist {
  ads: Array<{ id: string; created_at: string; display_960_url: string }>;
  remaining: number;
  next: { created_at: string; id: string } | null;
}

const RED = [{ hex: '#d7263d', share: 0.7 }, { hex: '#f7f7f5', share: 0.3 }];
const histogram = (bin = 0) => Array.from({ length: 16 }, (_, i) => (i === bin ? 1 : 0));
const print = (id: string, hash = '-1234567890123456789', colours: unknown = RED, shares: unknown = histogram()) => ({ id, hash, histogram: shares, colours });

describeOnEngines('the fingerprint backfill', (ctx) => {
  let people: Personas;
  let admin: Actor;
  let ads: TestAd[];

  const worklist = async (actor: Actor, after: Worklist['next'] = null, limit = 50) =>
    (
      await queryAs<{ page: Worklist }>(ctx.db, actor, 'select public.admin_ads_without_fingerprint($1, $2, $3) as page', [
        after?.created_at ?? null,
        after?.id ?? null,
        limit,
      ])
    )[0]!.page;
  const setFingerprints = (actor: Actor, prints: unknown) =>
    queryAs<{ written: number }>(ctx.db, actor, 'select public.admin_set_fingerprints($1::jsonb) as written', [JSON.stringify(prints)]);
  const stored = async (id: string) =>
    (
      await ctx.db.query<{ visual_hash: string | null; colour_histogram: number[] | null; colour_swatches: string[] | null; has_point: boolean }>(
        'select visual_hash::text, colour_histogram, colour_swatches, colour_point is not null as has_point from public.ads where id = $1',
        [id],
      )
    ).rows[0]!;

  beforeAll(async () => {
    people = await newPersonas(ctx.db);
    admin = userActor(people.admin);
    const brandId = (await newBrand(ctx.db)).id;
    const categoryId = (await newCategory(ctx.db)).id;
    // Only this file's ads lack a fingerprint.
    await ctx.db.query(
      `update public.ads set visual_hash = 0, colour_histogram = array_fill(0.0625::real, array[16]),
                             dominant_colours = '[{"hex":"#8e8e8e","share":1}]' where visual_hash is null`,
    );
    ads = await newAds(ctx.db, 5, { brandId, categoryId, startAt: '2026-03-01T00:00:00Z' });
  });

  describe('admin_ads_without_fingerprint', () => {
    it('is refused to anonymous visitors, free accounts, trials and subscribers', async () => {
      for (const actor of [userActor(people.free), userActor(people.subscriber), userActor(people.trialing)]) {
        await expectPgError(worklist(actor), { code: '42501', detail: 'admin_required' });
      }
      await expectPgError(worklist(anon), { code: '42501' });
    });

    it('walks the ads without a fingerprint newest first, a bounded page at a time, with a link to each 960 image', async () => {
      const first = await worklist(admin, null, 2);
      expect(first.remaining).toBe(5);
      expect(first.ads.map((ad) => ad.id)).toEqual([ads[0]!.id, ads[1]!.id]);
      expect(first.ads[0]!.display_960_url).toMatch(new RegExp(`^object/sign/ad-images/${ads[0]!.display_960_path}\\?token=`));
      expect(first.next).toEqual({ created_at: first.ads[1]!.created_at, id: ads[1]!.id });
      const second = await worklist(admin, first.next, 2);
      expect(second.ads.map((ad) => ad.id)).toEqual([ads[2]!.id, ads[3]!.id]);
      const last = await worklist(admin, second.next, 2);
      expect(last.ads.map((ad) => ad.id)).toEqual([ads[4]!.id]);
      expect(last.next).toBeNull();
    });

    it('refuses pages out of bounds and half a cursor', async () => {
      await expectPgError(worklist(admin, null, 0), { detail: 'invalid_limit' });
      await expectPgError(worklist(admin, null, 101), { detail: 'invalid_limit' });
      await expectPgError(queryAs(ctx.db, admin, 'select public.admin_ads_without_fingerprint(now(), null, 10)'), { detail: 'invalid_cursor' });
    });
  });

  describe('admin_set_fingerprints', () => {
    it('is refused to anonymous visitors, free accounts and subscribers, and changes nothing', async () => {
      for (const actor of [userActor(people.free), userActor(people.subscriber)]) {
        await expectPgError(setFingerprints(actor, [print(ads[4]!.id)]), { code: '42501', detail: 'admin_required' });
      }
      await expectPgError(setFingerprints(anon, [print(ads[4]!.id)]), { code: '42501' });
      expect((await stored(ads[4]!.id)).visual_hash).toBeNull();
    });

    it('stores the fingerprints of several ads with what the database derives from them, and the worklist no longer holds them', async () => {
      const [row] = await setFingerprints(admin, [print(ads[0]!.id), print(ads[1]!.id, '9223372036854775807', [{ hex: '#2e6fd8', share: 1 }], histogram(5))]);
      expect(row!.written).toBe(2);
      const first = await stored(ads[0]!.id);
      expect(first.visual_hash).toBe('-1234567890123456789');
      expect(first.colour_histogram).toEqual(histogram());
      expect(first.colour_swatches).toContain('red');
      expect(first.has_point).toBe(true);
      const second = await stored(ads[1]!.id);
      expect(second.visual_hash).toBe('9223372036854775807');
      expect(second.colour_histogram).toEqual(histogram(5));
      expect(second.colour_swatches).toContain('blue');
      const page = await worklist(admin);
      expect(page.remaining).toBe(3);
      expect(page.ads.map((ad) => ad.id)).toEqual([ads[2]!.id, ads[3]!.id, ads[4]!.id]);
      expect((await setFingerprints(admin, []))[0]!.written).toBe(0);
    });

    it('is all or nothing: an unknown ad, a malformed hash, histogram or colour, a duplicate or a non-list changes no row', async () => {
      const id = ads[2]!.id;
      const other = ads[3]!.id;
      await expectPgError(setFingerprints(admin, [print(id), print('00000000-0000-4000-8000-000000000000')]), { code: 'PT404', detail: 'not_found' });
      await expectPgError(setFingerprints(admin, [print(id), print(other, '9223372036854775808')]), { detail: 'invalid_fingerprints' });
      await expectPgError(setFingerprints(admin, [print(id), print(other, '12ab')]), { detail: 'invalid_fingerprints' });
      await expectPgError(setFingerprints(admin, [print(id), { ...print(other), hash: 12 }]), { detail: 'invalid_fingerprints' });
      await expectPgError(setFingerprints(admin, [print(id), print(other, '1', RED, histogram().slice(1))]), { detail: 'invalid_fingerprints' });
      await expectPgError(setFingerprints(admin, [print(id), print(other, '1', RED, [...histogram().slice(1), 'x'])]), { detail: 'invalid_fingerprints' });
      await expectPgError(setFingerprints(admin, [print(id), print(other, '1', RED, Array(16).fill(0.5))]), { detail: 'invalid_fingerprint' });
      await expectPgError(setFingerprints(admin, [print(id), print(other, '1', [{ hex: 'red', share: 1 }])]), { detail: 'invalid_fingerprint' });
      await expectPgError(setFingerprints(admin, [print(id), print(other, '1', [])]), { code: '23514' });
      await expectPgError(setFingerprints(admin, [print(id), print(other, '1', 'red')]), { detail: 'invalid_fingerprints' });
      await expectPgError(setFingerprints(admin, [print(id), print(other, '1', RED, 'sixteen')]), { detail: 'invalid_fingerprints' });
      await expectPgError(setFingerprints(admin, [print(id), { ...print(other), hash: '99999999999999999999' }]), { detail: 'invalid_fingerprints' });
      await expectPgError(setFingerprints(admin, ['not an object']), { detail: 'invalid_fingerprints' });
      await expectPgError(setFingerprints(admin, [print(id), print(id)]), { detail: 'invalid_fingerprints' });
      await expectPgError(setFingerprints(admin, [print(id), { ...print(other), id: 'not-a-uuid' }]), { detail: 'invalid_fingerprints' });
      await expectPgError(setFingerprints(admin, print(id)), { detail: 'invalid_fingerprints' });
      expect((await stored(id)).visual_hash).toBeNull();
      expect((await stored(other)).visual_hash).toBeNull();
    });

    it('takes 100 fingerprints in one call at most', async () => {
      const many = Array.from({ length: 101 }, (_, i) => print(`00000000-0000-4000-8000-${String(i).padStart(12, '0')}`));
      await expectPgError(setFingerprints(admin, many), { detail: 'too_many_fingerprints' });
      // 100 is within the bound: refused here only because those ads do not exist.
      await expectPgError(setFingerprints(admin, many.slice(0, 100)), { detail: 'not_found' });
    });
  });
});
