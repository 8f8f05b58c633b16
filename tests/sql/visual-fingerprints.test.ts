import { beforeAll, expect, it } from 'vitest';
import type { Queryable } from '../../local/db/database.ts';
import { anon, expectPgError, queryAs, userActor } from '../support/acting.ts';
import { describeOnEngines } from '../support/engines.ts';
import { newAd, newBrand, newCategory, newHook, newPersonas, newTag, newType, systemTagId, type Personas } from '../support/factories.ts';
import type { ListedAd } from '../support/listed-ad.ts';

/**
 * Visual fingerprints (supabase/schemas/50_media.sql): what the database derives from a written fingerprint, the near-duplicate
 * lookups, "more like this" and the colour filter, for every kind of caller.
 */

interface Fingerprint {
  hash: bigint;
  histogram: number[];
  colours: { hex: string; share: number }[];
}

/** A histogram with all of its weight in the given bins, shared equally. */
function histogramOf(...bins: number[]): number[] {
  const histogram = new Array<number>(16).fill(0);
  for (const bin of bins) histogram[bin]! += 1 / bins.length;
  return histogram.map((share) => Math.round(share * 10000) / 10000);
}

const fingerprint = (hash: bigint, colours: Fingerprint['colours'], histogram = histogramOf(0)): Fingerprint => ({
  hash,
  histogram,
  colours,
});

/** The hash with the given bits (0 to 63) flipped, as a signed 64-bit value. */
const flip = (hash: bigint, ...bits: number[]) => BigInt.asIntN(64, bits.reduce((h, bit) => h ^ (1n << BigInt(bit)), hash));

async function writeFingerprint(db: Queryable, adId: string, print: Fingerprint): Promise<void> {
  await db.query('update public.ads set visual_hash = $2, colour_histogram = $3, dominant_colours = $4 where id = $1', [
    adId,
    print.hash.toString(),
    print.histogram,
    JSON.stringify(print.colours),
  ]);
}

interface Derived {
  colour_swatches: string[] | null;
  near_duplicate_of: string | null;
  has_vector: boolean;
}

describeOnEngines('visual fingerprints', (ctx) => {
  let people: Personas;
  let brandId: string;
  let categoryId: string;

  const derived = async (adId: string): Promise<Derived> =>
    (
      await ctx.db.query<Derived>(
        'select colour_swatches, near_duplicate_of, visual_vector is not null as has_vector from public.ads where id = $1',
        [adId],
      )
    ).rows[0]!;
  const ad = async (options: { createdAt?: string; requiresSubscription?: boolean; tagIds?: string[]; categoryId?: string } = {}) =>
    (await newAd(ctx.db, { brandId, categoryId: options.categoryId ?? categoryId, ...options })).id;

  beforeAll(async () => {
    people = await newPersonas(ctx.db);
    brandId = (await newBrand(ctx.db)).id;
    categoryId = (await newCategory(ctx.db)).id;
  });

  it('lets the admin write a fingerprint through the API and derives the vector and the swatches from it', async () => {
    const id = await ad();
    await queryAs(
      ctx.db,
      userActor(people.admin),
      'update public.ads set visual_hash = $2, colour_histogram = $3, dominant_colours = $4 where id = $1',
      [id, '-1234567890123', histogramOf(0, 12), JSON.stringify([{ hex: '#d52a3a', share: 0.62 }, { hex: '#151515', share: 0.38 }])],
    );
    expect(await derived(id)).toEqual({ colour_swatches: ['black', 'red'], near_duplicate_of: null, has_vector: true });
    // Derived columns cannot be written: the API role has no right to them.
    await expectPgError(queryAs(ctx.db, userActor(people.admin), `update public.ads set colour_swatches = '{blue}' where id = $1`, [id]), {
      code: '42501',
    });
  });

  it('refuses a fingerprint from anyone but an admin', async () => {
    const id = await ad();
    for (const actor of [userActor(people.free), userActor(people.subscriber)]) {
      const rows = await queryAs(ctx.db, actor, `update public.ads set visual_hash = 1 where id = $1 returning id`, [id]);
      expect(rows).toEqual([]);
    }
    await expectPgError(queryAs(ctx.db, anon, `update public.ads set visual_hash = 1 where id = $1`, [id]), { code: '42501' });
    expect((await derived(id)).has_vector).toBe(false);
  });

  it('refuses a partial or malformed fingerprint and changes nothing', async () => {
    const id = await ad();
    const red = [{ hex: '#d52a3a', share: 1 }];
    const write = (hash: string | null, histogram: number[] | null, colours: unknown) =>
      ctx.db.query('update public.ads set visual_hash = $2, colour_histogram = $3, dominant_colours = $4 where id = $1', [
        id,
        hash,
        histogram,
        colours === null ? null : JSON.stringify(colours),
      ]);
    await expectPgError(write('1', null, null), { code: '23514', constraint: 'ads_fingerprint_whole' });
    await expectPgError(write('1', histogramOf(0).slice(0, 15), red), { code: '23514', constraint: 'ads_colour_histogram_shape' });
    await expectPgError(write('1', histogramOf(0).map((x) => x * 2), red), { code: '23514' });
    await expectPgError(write('1', histogramOf(0).map((x) => x / 2), red), { code: '23514', detail: 'invalid_fingerprint' });
    await expectPgError(write('1', histogramOf(0), []), { code: '23514', constraint: 'ads_dominant_colours_shape' });
    await expectPgError(write('1', histogramOf(0), new Array(6).fill(red[0])), { code: '23514', constraint: 'ads_dominant_colours_shape' });
    await expectPgError(write('1', histogramOf(0), [{ hex: 'red', share: 1 }]), { code: '23514', detail: 'invalid_fingerprint' });
    await expectPgError(write('1', histogramOf(0), [{ hex: '#D52A3A', share: 1 }]), { code: '23514', detail: 'invalid_fingerprint' });
    await expectPgError(write('1', histogramOf(0), [{ hex: '#d52a3a', share: 1.5 }]), { code: '23514', detail: 'invalid_fingerprint' });
    await expectPgError(write('1', histogramOf(0), [{ hex: '#d52a3a', share: '1' }]), { code: '23514', detail: 'invalid_fingerprint' });
    await expectPgError(write('1', histogramOf(0), [{ hex: '#d52a3a', share: 1, extra: 1 }]), { code: '23514', detail: 'invalid_fingerprint' });
    expect(await derived(id)).toEqual({ colour_swatches: null, near_duplicate_of: null, has_vector: false });
  });

  it('matches a colour to its nearest swatch and to swatches almost as near, ignoring colours under 10% of the image', async () => {
    const cases: [Fingerprint['colours'], string[]][] = [
      [[{ hex: '#ffffff', share: 1 }], ['white']],
      [[{ hex: '#2e6fd8', share: 0.9 }, { hex: '#d7263d', share: 0.09 }], ['blue']],
      [[{ hex: '#2e6fd8', share: 0.5 }, { hex: '#f08a24', share: 0.5 }], ['blue', 'orange']],
      [[{ hex: '#8e8e8e', share: 1 }], ['grey']],
      [[{ hex: '#e9d6b4', share: 1 }], ['beige']],
    ];
    for (const [colours, swatches] of cases) {
      const id = await ad();
      await writeFingerprint(ctx.db, id, fingerprint(BigInt(Math.floor(Math.random() * 2 ** 40)) << 20n, colours));
      expect((await derived(id)).colour_swatches, JSON.stringify(colours)).toEqual(swatches);
    }
    // Between orange and yellow: found under both.
    const between = await ad();
    await writeFingerprint(ctx.db, between, fingerprint(77n << 30n, [{ hex: '#f4ae32', share: 1 }]));
    expect((await derived(between)).colour_swatches).toEqual(['orange', 'yellow']);
  });

  it('finds every hash at most 7 bits away and none 8 or more away, through the quarters, among images of like colours', async () => {
    const base = BigInt.asIntN(64, 0x5a3c_96e1_0f27_b4d8n);
    const bits = Array.from({ length: 64 }, (_, i) => i);
    const spread = (n: number, seed: number) => bits.filter((_, i) => (i * 37 + seed * 11) % 64 < n * 1).slice(0, n);
    for (let trial = 0; trial < 12; trial += 1) {
      // 7 flipped bits packed into as few quarters as possible, and spread over all four.
      const packed = bits.slice(trial * 4, trial * 4 + 7);
      const spreadBits = spread(7, trial);
      for (const flips of [packed, spreadBits]) {
        const [row] = (
          await ctx.db.query<{ found: boolean }>(
            `select exists (select 1 from private.hash_quarter_probes($1::bigint) p
                             where ((($2::bigint >> 48) & 65535)::int = any (p.q0) or (($2::bigint >> 32) & 65535)::int = any (p.q1)
                                    or (($2::bigint >> 16) & 65535)::int = any (p.q2) or ($2::bigint & 65535)::int = any (p.q3))) as found`,
            [base.toString(), flip(base, ...flips).toString()],
          )
        ).rows;
        expect(row!.found, `flipped ${flips.join(',')}`).toBe(true);
      }
    }
    const ids = [await ad(), await ad(), await ad(), await ad()];
    const hashBase = BigInt.asIntN(64, 0x1111_2222_3333_4444n);
    await writeFingerprint(ctx.db, ids[0]!, fingerprint(hashBase, [{ hex: '#ffffff', share: 1 }]));
    await writeFingerprint(ctx.db, ids[1]!, fingerprint(flip(hashBase, 0, 17, 33, 49, 50, 51, 63), [{ hex: '#ffffff', share: 1 }]));
    await writeFingerprint(ctx.db, ids[2]!, fingerprint(flip(hashBase, 1, 2, 18, 34, 35, 52, 53, 60), [{ hex: '#ffffff', share: 1 }]));
    await writeFingerprint(ctx.db, ids[3]!, fingerprint(flip(hashBase, 5), [{ hex: '#ffffff', share: 1 }]));
    const found = await queryAs<{ result: { id: string; distance: number }[] }>(
      ctx.db,
      userActor(people.admin),
      'select public.admin_near_duplicates($1::bigint, $2::real[]) as result',
      [hashBase.toString(), histogramOf(0)],
    );
    expect(found[0]!.result.map((entry) => [entry.id, entry.distance])).toEqual([
      [ids[0], 0],
      [ids[3], 1],
      [ids[1], 7],
    ]);
    // As the admin sees it: clear, with display links.
    expect((found[0]!.result[0] as unknown as ListedAd).is_clear).toBe(true);
    // The same layout in other colours is no duplicate: the histograms are far apart.
    const otherColours = await queryAs<{ result: unknown[] }>(
      ctx.db,
      userActor(people.admin),
      'select public.admin_near_duplicates($1::bigint, $2::real[]) as result',
      [hashBase.toString(), histogramOf(7)],
    );
    expect(otherColours[0]!.result).toEqual([]);
  });

  it('looks up near-duplicates without JIT compilation, however many ads the planner expects the probes to find', async () => {
    // At 1,000,000 ads the planner costs the lookup above jit_above_cost and compiled it for 224 ms before a 10 ms
    // read (decision 0051): the function keeps JIT off for its own statements.
    const { rows } = await ctx.db.query<{ config: string[] | null }>(
      `select p.proconfig as config from pg_proc p where p.oid = 'private.ads_near_hash(bigint, extensions.cube)'::regprocedure`,
    );
    expect(rows[0]!.config).toEqual(expect.arrayContaining(['jit=off', 'max_parallel_workers_per_gather=0']));
    // A lookup gives the same ads with it.
    const id = await ad();
    const hash = BigInt.asIntN(64, 0x0bad_cafe_1234_5678n);
    await writeFingerprint(ctx.db, id, fingerprint(hash, [{ hex: '#ffffff', share: 1 }]));
    const found = await queryAs<{ result: { id: string; distance: number }[] }>(
      ctx.db,
      userActor(people.admin),
      'select public.admin_near_duplicates($1::bigint, $2::real[]) as result',
      [flip(hash, 3).toString(), histogramOf(0)],
    );
    expect(found[0]!.result.map((entry) => [entry.id, entry.distance])).toEqual([[id, 1]]);
  });

  it('keeps each ad pointing at the earliest near-duplicate added before it, as ads come, change and go', async () => {
    const hash = BigInt.asIntN(64, 0x7777_0000_ffff_1234n);
    const white = [{ hex: '#ffffff', share: 1 }];
    const first = await ad({ createdAt: '2026-03-01T00:00:00Z' });
    const second = await ad({ createdAt: '2026-03-02T00:00:00Z' });
    const third = await ad({ createdAt: '2026-03-03T00:00:00Z' });
    await writeFingerprint(ctx.db, second, fingerprint(flip(hash, 3), white));
    await writeFingerprint(ctx.db, third, fingerprint(flip(hash, 3, 40), white));
    expect((await derived(second)).near_duplicate_of).toBeNull();
    expect((await derived(third)).near_duplicate_of).toBe(second);
    // An earlier ad gets the same image: both later ones now point at it.
    await writeFingerprint(ctx.db, first, fingerprint(hash, white));
    expect((await derived(second)).near_duplicate_of).toBe(first);
    expect((await derived(third)).near_duplicate_of).toBe(first);
    // Its image is replaced by one of the same layout in other colours: they point at what is left.
    await writeFingerprint(ctx.db, first, fingerprint(hash, white, histogramOf(9)));
    expect((await derived(first)).near_duplicate_of).toBeNull();
    expect((await derived(third)).near_duplicate_of).toBe(second);
    // The admin's groups show second with third under it.
    const groups = await queryAs<{ result: { groups: { original: ListedAd; duplicates: (ListedAd & { distance: number })[] }[]; total: number } }>(
      ctx.db,
      userActor(people.admin),
      'select public.admin_near_duplicate_groups(0) as result',
    );
    const group = groups[0]!.result.groups.find((g) => g.original.id === second);
    expect(group?.duplicates.map((d) => [d.id, d.distance])).toEqual([[third, 1]]);
    // second goes: third has nothing before it to duplicate.
    await ctx.db.query('delete from public.ads where id = $1', [second]);
    expect((await derived(third)).near_duplicate_of).toBeNull();
  });

  it('refuses the near-duplicate lookups to everyone but admins', async () => {
    for (const actor of [userActor(people.free), userActor(people.subscriber)]) {
      await expectPgError(queryAs(ctx.db, actor, 'select public.admin_near_duplicates(1, $1::real[])', [histogramOf(0)]), {
        code: '42501',
        detail: 'admin_required',
      });
      await expectPgError(queryAs(ctx.db, actor, 'select public.admin_near_duplicate_groups(0)'), { code: '42501', detail: 'admin_required' });
    }
    await expectPgError(queryAs(ctx.db, anon, 'select public.admin_near_duplicates(1, $1::real[])', [histogramOf(0)]), { code: '42501' });
    await expectPgError(queryAs(ctx.db, userActor(people.admin), 'select public.admin_near_duplicates(1, $1::real[])', [[0.5, 0.5]]), {
      code: 'P0001',
      detail: 'invalid_fingerprint',
    });
    await expectPgError(queryAs(ctx.db, userActor(people.admin), 'select public.admin_near_duplicate_groups(-1)'), {
      code: 'P0001',
      detail: 'invalid_page',
    });
  });

  it('ranks more like this by category, look, tags, type, hook and format, from the ad own board, locked as in the grid', async () => {
    const category = (await newCategory(ctx.db)).id;
    const otherCategory = (await newCategory(ctx.db)).id;
    const hook = (await newHook(ctx.db)).id;
    const [tagA, tagB, tagC] = [(await newTag(ctx.db)).id, (await newTag(ctx.db)).id, (await newTag(ctx.db)).id];
    const red = [{ hex: '#d52a3a', share: 1 }];
    const subject = await ad({ categoryId: category, tagIds: [tagA, tagB] });
    const twin = await ad({ categoryId: category, tagIds: [tagA, tagB], requiresSubscription: true });
    const sameLook = await ad({ categoryId: otherCategory });
    const sameTags = await ad({ categoryId: otherCategory, tagIds: [tagA, tagB], requiresSubscription: false });
    const oneTag = await ad({ categoryId: category, tagIds: [tagA, tagC] });
    const blackFriday = await ad({ categoryId: category, tagIds: [tagA, tagB, await systemTagId(ctx.db, 'black_friday')] });
    await ctx.db.query('update public.ads set hook_id = $2, format = $3 where id = any ($1)', [[subject, twin], hook, 'single_image']);
    const hash = BigInt.asIntN(64, 0x0f0f_0f0f_f0f0_f0f0n);
    await writeFingerprint(ctx.db, subject, fingerprint(hash, red, histogramOf(0, 1)));
    await writeFingerprint(ctx.db, twin, fingerprint(flip(hash, 9), red, histogramOf(0, 1)));
    await writeFingerprint(ctx.db, sameLook, fingerprint(flip(hash, 20, 21), red, histogramOf(0, 1)));
    await writeFingerprint(ctx.db, blackFriday, fingerprint(hash, red, histogramOf(0, 1)));
    await writeFingerprint(ctx.db, sameTags, fingerprint(~hash, [{ hex: '#2e6fd8', share: 1 }], histogramOf(7)));

    const similar = async (actor: Parameters<typeof queryAs>[1], id = subject) =>
      (await queryAs<{ ads: ListedAd[] }>(ctx.db, actor, 'select public.similar_ads($1) as ads', [id]))[0]!.ads;
    const forSubscriber = await similar(userActor(people.subscriber));
    expect(forSubscriber.length).toBeLessThanOrEqual(12);
    const ids = forSubscriber.map((a) => a.id);
    // twin: same category, look, tags, hook and format; oneTag: the category and one of two tags, no fingerprint;
    // sameLook: the look alone, in another category (sameTags, the tags alone in another category, weighs less than
    // the look of the file's other ads).
    expect(ids.slice(0, 3)).toEqual([twin, oneTag, sameLook]);
    expect(ids).not.toContain(subject);
    expect(ids).not.toContain(blackFriday);
    expect(forSubscriber.every((a) => a.is_clear)).toBe(true);

    // A free account and an anonymous visitor get the same ads, each clear or locked by the grid's rule; a locked
    // one has no display links.
    const rule = new Map(
      (
        await ctx.db.query<{ id: string; open: boolean }>(
          'select id, not requires_subscription or free_sample as open from public.ads where id = any ($1)',
          [ids],
        )
      ).rows.map((row) => [row.id, row.open]),
    );
    expect([...rule.values()]).toContain(false);
    for (const actor of [userActor(people.free), anon]) {
      const ads = await similar(actor);
      expect(ads.map((a) => a.id)).toEqual(ids);
      for (const listed of ads) {
        expect(listed.is_clear, listed.id).toBe(rule.get(listed.id));
        if (!listed.is_clear) {
          expect(listed.display_480_url ?? null).toBeNull();
          expect(listed.display_960_url ?? null).toBeNull();
          expect(listed.preview_url).toBeTruthy();
        }
      }
    }

    // A Black Friday ad: its own board's ads, for signed-in callers only.
    expect(await similar(anon, blackFriday)).toEqual([]);
    const fromBlackFriday = await similar(userActor(people.free), blackFriday);
    expect(fromBlackFriday.every((a) => a.is_black_friday)).toBe(true);

    await expectPgError(queryAs(ctx.db, anon, 'select public.similar_ads(gen_random_uuid())'), { code: 'PT404', detail: 'ad_not_found' });
  });

  /** The ids "more like this" gives a subscriber, most alike first. */
  const similarIds = async (id: string) =>
    (await queryAs<{ ads: ListedAd[] }>(ctx.db, userActor(people.subscriber), 'select public.similar_ads($1) as ads', [id]))[0]!.ads.map((a) => a.id);
  /** One histogram and palette for many ads, each with a hash of its own far from the others' (none nearly duplicates another). */
  const fingerprintMany = async (ids: string[], histogram: number[], colours: Fingerprint['colours']) =>
    ctx.db.query(
      `update public.ads a set visual_hash = p.hash, colour_histogram = $3, dominant_colours = $4
         from unnest($1::uuid[], $2::bigint[]) p (id, hash) where a.id = p.id`,
      [ids, ids.map((_, i) => BigInt.asIntN(64, BigInt(i + 1) * 0x9e37_79b9_7f4a_7c15n).toString()), histogram, JSON.stringify(colours)],
    );
  /** Gives the ads one type, hook and format: what one template of a creative shares. */
  const sameTemplate = async (ids: string[], typeId: string, hookId: string) =>
    ctx.db.query(`update public.ads set type_id = $2, hook_id = $3, format = 'single_image' where id = any ($1)`, [ids, typeId, hookId]);

  it('shows the ad own category first: its ads of another look before other categories ads of its look, type, hook and format', async () => {
    const [category, otherCategory] = [(await newCategory(ctx.db)).id, (await newCategory(ctx.db)).id];
    const [type, hook] = [(await newType(ctx.db)).id, (await newHook(ctx.db)).id];
    const hash = BigInt.asIntN(64, 0x3c3c_a5a5_5a5a_c3c3n);
    const green = [{ hex: '#3c9d4e', share: 1 }];
    const subject = await ad({ categoryId: category });
    await writeFingerprint(ctx.db, subject, fingerprint(hash, green, histogramOf(0, 1)));
    const ownCategory: string[] = [];
    const otherCategoryTemplate: string[] = [];
    for (let i = 0; i < 12; i += 1) {
      const own = await ad({ categoryId: category });
      // Half the histogram elsewhere and 12 of 64 bits changed: alike in part.
      await writeFingerprint(ctx.db, own, fingerprint(flip(hash, ...Array.from({ length: 12 }, (_, bit) => bit)), [{ hex: '#9d3c8b', share: 1 }], histogramOf(0, 2)));
      ownCategory.push(own);
      const template = await ad({ categoryId: otherCategory });
      await writeFingerprint(ctx.db, template, fingerprint(flip(hash, 20, 21), green, histogramOf(0, 1)));
      otherCategoryTemplate.push(template);
    }
    await sameTemplate([subject, ...otherCategoryTemplate], type, hook);

    expect([...(await similarIds(subject))].sort()).toEqual([...ownCategory].sort());
  });

  it('orders the ad own category by look: the closest look before an ad sharing its tags, type, hook and format, then closer before farther', async () => {
    const category = (await newCategory(ctx.db)).id;
    const [type, hook] = [(await newType(ctx.db)).id, (await newHook(ctx.db)).id];
    const tags = [(await newTag(ctx.db)).id, (await newTag(ctx.db)).id];
    const hash = BigInt.asIntN(64, 0x5a5a_0ff0_c3c3_3cc3n);
    const purple = [{ hex: '#7d4cdb', share: 1 }];
    const unrelated = fingerprint(~hash, [{ hex: '#f4d03f', share: 1 }], histogramOf(12));
    const subject = await ad({ categoryId: category, tagIds: tags });
    await writeFingerprint(ctx.db, subject, fingerprint(hash, purple, histogramOf(4, 5)));
    const close = await ad({ categoryId: category });
    await writeFingerprint(ctx.db, close, fingerprint(flip(hash, 3, 4), purple, histogramOf(4, 5)));
    const middle = await ad({ categoryId: category });
    await writeFingerprint(ctx.db, middle, fingerprint(flip(hash, ...Array.from({ length: 12 }, (_, bit) => 40 + bit)), purple, histogramOf(4, 6)));
    const far = await ad({ categoryId: category });
    await writeFingerprint(ctx.db, far, unrelated);
    const sharesAllButTheLook = await ad({ categoryId: category, tagIds: tags });
    await writeFingerprint(ctx.db, sharesAllButTheLook, unrelated);
    await sameTemplate([subject, sharesAllButTheLook], type, hook);

    const ids = await similarIds(subject);
    expect(ids[0]).toBe(close);
    expect(ids.slice(0, 4).sort()).toEqual([close, middle, far, sharesAllButTheLook].sort());
    expect(ids.indexOf(middle)).toBeLessThan(ids.indexOf(far));
    expect(ids.indexOf(sharesAllButTheLook)).toBeLessThan(ids.indexOf(far));
  });

  it('finds the category look-alike however old, past 30 newer ads of its category and 100 of other categories nearer in colour', async () => {
    const [category, otherCategory] = [(await newCategory(ctx.db)).id, (await newCategory(ctx.db)).id];
    const hash = BigInt.asIntN(64, 0x0ff0_3cc3_a55a_9669n);
    const amber = [{ hex: '#e0a030', share: 1 }];
    const lookAlike = await ad({ categoryId: category, createdAt: '2025-01-01T00:00:00Z' });
    await writeFingerprint(ctx.db, lookAlike, fingerprint(flip(hash, 1, 2), [{ hex: '#e0a034', share: 1 }], histogramOf(1, 2)));
    const newer: string[] = [];
    for (let i = 0; i < 30; i += 1) newer.push(await ad({ categoryId: category, createdAt: new Date(Date.UTC(2026, 5, 1, 0, i)).toISOString() }));
    await fingerprintMany(newer, histogramOf(14, 15), [{ hex: '#f7f7f5', share: 1 }]);
    // Of the subject's colour exactly: the 100 nearest in colour are theirs.
    const crowd: string[] = [];
    for (let i = 0; i < 101; i += 1) crowd.push(await ad({ categoryId: otherCategory }));
    await fingerprintMany(crowd, histogramOf(9), amber);
    const subject = await ad({ categoryId: category });
    await writeFingerprint(ctx.db, subject, fingerprint(hash, amber, histogramOf(1, 2)));

    const ids = await similarIds(subject);
    expect(ids[0]).toBe(lookAlike);
    expect(ids.slice(1).every((id) => newer.includes(id))).toBe(true);
  });

  it('filters the library by a colour swatch in every order, page by page, and refuses an unknown colour', async () => {
    const brand = (await newBrand(ctx.db)).id;
    const ids: { id: string; blue: boolean }[] = [];
    for (let i = 0; i < 70; i += 1) {
      const id = (await newAd(ctx.db, { brandId: brand, categoryId, createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString() })).id;
      const blue = i % 3 === 0;
      await writeFingerprint(
        ctx.db,
        id,
        fingerprint(BigInt(i) << 40n, blue ? [{ hex: '#ffffff', share: 0.6 }, { hex: '#2e6fd8', share: 0.4 }] : [{ hex: '#f7f7f5', share: 1 }]),
      );
      await ctx.db.query(`update public.ads set first_seen = current_date - $2::int, still_running = true where id = $1`, [id, 100 + i]);
      ids.push({ id, blue });
    }
    const blueNewestFirst = ids.filter((x) => x.blue).map((x) => x.id).reverse();
    const listQuery = async (query: Record<string, unknown>) =>
      (
        await queryAs<{ page: { ads: ListedAd[]; next_cursor: string | null } }>(
          ctx.db,
          userActor(people.subscriber),
          'select public.list_ads($1::jsonb) as page',
          [JSON.stringify(query)],
        )
      )[0]!.page;
    const list = (query: Record<string, unknown>, cursor: string | null = null) => listQuery({ brand_ids: [brand], cursor, ...query });
    expect((await list({ colour: 'blue' })).ads.map((a) => a.id)).toEqual(blueNewestFirst);
    const white = await list({ colour: 'white' });
    expect(white.ads).toHaveLength(60);
    const rest = await list({ colour: 'white' }, white.next_cursor);
    expect(rest.ads).toHaveLength(10);
    expect((await list({ colour: 'blue', sort: 'longest_running' })).ads.map((a) => a.id)).toEqual(
      ids.filter((x) => x.blue).map((x) => x.id).reverse(),
    );
    // With running days alone (no brand), the colour still applies.
    const running = await listQuery({ min_running_days: 150, colour: 'blue' });
    const blueIds = new Set(ids.filter((x) => x.blue).map((x) => x.id));
    expect(running.ads.length).toBeGreaterThan(0);
    expect(running.ads.every((a) => blueIds.has(a.id))).toBe(true);
    expect(running.ads.map((a) => a.id)).toEqual(blueNewestFirst.filter((id) => ids.findIndex((x) => x.id === id) >= 49));
    // A cursor of another colour's query does not fit.
    await expectPgError(list({ colour: 'blue' }, white.next_cursor), { code: '22023' });
    await expectPgError(list({ colour: 'teal' }), { code: 'P0001', detail: 'invalid_filter' });
  });
});
