import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeOnEngines } from '../support/engines.ts';
import { anon, expectPgError, queryAs, serviceRole, userActor, type Actor } from '../support/acting.ts';
import type { Queryable } from '../../local/db/database.ts';
import {
  newAd,
  newBrand,
  newCategory,
  newPersonas,
  newTag,
  newType,
  systemTagId,
  type Personas,
} from '../support/factories.ts';

type Sort = 'newest' | 'oldest' | 'brand_asc' | 'brand_desc';
const sorts: Sort[] = ['newest', 'oldest', 'brand_asc', 'brand_desc'];

interface AdminQuery {
  p_limit?: number | null;
  p_offset?: number | null;
  p_search?: string | null;
  p_brand?: string;
  p_category?: string;
  p_type?: string;
  p_tag_ids?: string[];
  p_date_from?: string;
  p_date_to?: string;
  p_sort?: string | null;
}

interface AdminRow {
  id: string;
  brand_name: string;
  category_name: string;
  type_name: string | null;
  tag_ids: string[];
  tag_names: string[];
  original_path: string | null;
  display_480_path: string | null;
  display_960_path: string | null;
  preview_path: string | null;
  total_count: string;
}

/** What the admin table should show, worked out from the rows themselves. */
interface ModelAd {
  id: string;
  brand_id: string;
  brand_name: string;
  category_id: string;
  category_name: string;
  type_id: string | null;
  tag_ids: string[];
  tag_names: string[];
  micros: bigint;
  utc_day: string;
}

async function loadModel(db: Queryable): Promise<ModelAd[]> {
  const { rows } = await db.query<Omit<ModelAd, 'micros'> & { micros: string }>(
    `select a.id, a.brand_id, b.name as brand_name, a.category_id, c.name as category_name, a.type_id,
            array(select t.tag_id from public.ad_tags t where t.ad_id = a.id) as tag_ids,
            array(select g.name from public.ad_tags t join public.tags g on g.id = t.tag_id where t.ad_id = a.id) as tag_names,
            (extract(epoch from a.created_at) * 1000000)::bigint as micros,
            to_char(a.created_at at time zone 'UTC', 'YYYY-MM-DD') as utc_day
       from public.ads a join public.brands b on b.id = a.brand_id join public.categories c on c.id = a.category_id`,
  );
  return rows.map((row) => ({ ...row, micros: BigInt(row.micros) }));
}

const compare = (a: string | bigint, b: string | bigint) => (a < b ? -1 : a > b ? 1 : 0);

function expected(model: ModelAd[], query: AdminQuery): string[] {
  const search = query.p_search?.trim().toLowerCase();
  const day = (value: string) => value.slice(0, 10);
  const matching = model.filter(
    (ad) =>
      (!search ||
        ad.brand_name.toLowerCase().includes(search) ||
        ad.category_name.toLowerCase().includes(search) ||
        ad.tag_names.some((name) => name.toLowerCase().includes(search))) &&
      (!query.p_brand || ad.brand_id === query.p_brand) &&
      (!query.p_category || ad.category_id === query.p_category) &&
      (!query.p_type || ad.type_id === query.p_type) &&
      (query.p_tag_ids ?? []).every((tag) => ad.tag_ids.includes(tag)) &&
      (!query.p_date_from || ad.utc_day >= day(query.p_date_from)) &&
      (!query.p_date_to || ad.utc_day <= day(query.p_date_to)),
  );
  const newest = (a: ModelAd, b: ModelAd) => compare(b.micros, a.micros) || compare(b.id, a.id);
  const byBrand = (a: ModelAd, b: ModelAd) =>
    compare(a.brand_name.toLowerCase(), b.brand_name.toLowerCase()) || compare(a.brand_name, b.brand_name);
  const order: Record<Sort, (a: ModelAd, b: ModelAd) => number> = {
    newest,
    oldest: (a, b) => -newest(a, b),
    brand_asc: (a, b) => byBrand(a, b) || newest(a, b),
    brand_desc: (a, b) => -byBrand(a, b) || newest(a, b),
  };
  return matching.sort(order[(query.p_sort ?? 'newest') as Sort]).map((ad) => ad.id);
}

function callAdmin(db: Parameters<typeof queryAs>[0], actor: Actor, query: AdminQuery): Promise<AdminRow[]> {
  const entries = Object.entries(query);
  const casts: Record<string, string> = { p_tag_ids: '::uuid[]', p_brand: '::uuid', p_category: '::uuid', p_type: '::uuid' };
  const args = entries.map(([name], i) => `${name} => $${i + 1}${casts[name] ?? ''}`).join(', ');
  return queryAs<AdminRow>(db, actor, `select * from public.get_ads_admin(${args})`, entries.map(([, value]) => value));
}

/** Every page of a query at the default page size, with the total each page reports. */
async function allPages(db: Parameters<typeof queryAs>[0], actor: Actor, query: AdminQuery) {
  const ids: string[] = [];
  const totals = new Set<string>();
  for (let offset = 0; ; offset += 50) {
    const rows = await callAdmin(db, actor, { ...query, p_offset: offset });
    rows.forEach((row) => totals.add(row.total_count));
    ids.push(...rows.map((row) => row.id));
    if (rows.length < 50) return { ids, totals: [...totals] };
  }
}

describeOnEngines('admin ad management', (ctx) => {
  let people: Personas;
  let admin: Actor;
  const catalogue = {
    brands: {} as Record<string, string>,
    categories: {} as Record<string, string>,
    types: {} as Record<string, string>,
    tags: {} as Record<string, string>,
  };

  beforeAll(async () => {
    people = await newPersonas(ctx.db);
    admin = userActor(people.admin);
    for (const name of ['Alpha Skin', 'beta Shoes', 'Gamma_Home', 'Delta 100% Pure']) catalogue.brands[name] = (await newBrand(ctx.db, name)).id;
    for (const name of ['Skincare', 'Footwear', 'Kitchen']) catalogue.categories[name] = (await newCategory(ctx.db, name)).id;
    for (const name of ['Static', 'Carousel']) catalogue.types[name] = (await newType(ctx.db, name)).id;
    for (const name of ['Summer', 'Winter', 'UGC']) catalogue.tags[name] = (await newTag(ctx.db, name)).id;
    const brands = Object.values(catalogue.brands);
    const categories = Object.values(catalogue.categories);
    const types = Object.values(catalogue.types);
    const [summer, winter, ugc] = Object.values(catalogue.tags);
    // 130 ads, five hours and seven minutes apart from 1 February 2026, every path with its object.
    await ctx.db.query(
      `insert into storage.objects (bucket_id, name)
       select v.b, 'bulk-' || g || '/' || v.f from generate_series(1, 130) g,
         (values ('ad-originals', 'original.jpg'), ('ad-images', '480.webp'), ('ad-images', '960.webp'), ('ad-images', 'preview.webp')) v (b, f)`,
    );
    await ctx.db.query(
      `insert into public.ads (brand_id, category_id, type_id, created_at, original_path, display_480_path, display_960_path,
                               preview_path, width, height, thumbhash)
       select ($1::uuid[])[g % 4 + 1], ($2::uuid[])[g % 3 + 1], case when g % 5 = 0 then null else ($3::uuid[])[g % 2 + 1] end,
              timestamptz '2026-02-01 00:00:00+00' + g * interval '5 hours 7 minutes',
              'bulk-' || g || '/original.jpg', 'bulk-' || g || '/480.webp', 'bulk-' || g || '/960.webp', 'bulk-' || g || '/preview.webp',
              1080, 1350, 'YJqGPQw7sFlslqhFafSE+Q6oJ1h2iHB2Rw=='
         from generate_series(1, 130) g`,
      [brands, categories, types],
    );
    await ctx.db.query(
      `insert into public.ad_tags (ad_id, tag_id)
       select a.id, t.tag from public.ads a
         cross join lateral (select split_part(split_part(a.display_480_path, '/', 1), '-', 2)::int as g) n
         cross join lateral (values ($1::uuid, n.g % 2 = 0), ($2::uuid, n.g % 3 = 0), ($3::uuid, n.g % 7 = 0)) t (tag, wanted)
        where a.display_480_path like 'bulk-%' and t.wanted`,
      [summer, winter, ugc],
    );
    // Ads on both sides of the day 10 March 2026 (UTC), to the microsecond.
    const alpha = catalogue.brands['Alpha Skin']!;
    const skincare = catalogue.categories['Skincare']!;
    for (const createdAt of ['2026-03-09T23:59:59.999999Z', '2026-03-10T00:00:00Z', '2026-03-10T23:59:59.999999Z', '2026-03-11T00:00:00Z']) {
      await newAd(ctx.db, { brandId: alpha, categoryId: skincare, createdAt, tagIds: [summer!] });
    }
  });

  describe('get_ads_admin', () => {
    const queries = (): [string, AdminQuery][] => {
      const { brands, categories, types, tags } = catalogue;
      return [
        ['no filter', {}],
        ['a search on a brand name, any case', { p_search: 'ALPHA' }],
        ['a search on part of a brand name', { p_search: ' shoe ' }],
        ['a search on a category name', { p_search: 'kitch' }],
        ['a search on a tag name', { p_search: 'winter' }],
        ['a search for a literal underscore', { p_search: '_' }],
        ['a search for a literal percent sign', { p_search: '100%' }],
        ['a search of spaces only (no search)', { p_search: '   ' }],
        ['a search matching nothing', { p_search: 'no such thing' }],
        ['a brand', { p_brand: brands['beta Shoes']! }],
        ['a category', { p_category: categories['Footwear']! }],
        ['a type', { p_type: types['Carousel']! }],
        ['one tag', { p_tag_ids: [tags['Winter']!] }],
        ['two tags, all of them', { p_tag_ids: [tags['Summer']!, tags['Winter']!] }],
        ['three tags, all of them', { p_tag_ids: [tags['Summer']!, tags['Winter']!, tags['UGC']!] }],
        ['a date from', { p_date_from: '2026-02-20' }],
        ['a date to', { p_date_to: '2026-02-05' }],
        ['one whole day', { p_date_from: '2026-03-10', p_date_to: '2026-03-10' }],
        ['a day range given as start and end of day timestamps', { p_date_from: '2026-02-10T00:00:00.000Z', p_date_to: '2026-02-12T23:59:59.999Z' }],
        ['everything at once', {
          p_search: 'summer', p_brand: brands['Alpha Skin']!, p_category: categories['Skincare']!,
          p_tag_ids: [tags['Summer']!], p_date_from: '2026-02-03', p_date_to: '2026-03-10',
        }],
        ['brand, type and tag', { p_brand: brands['Gamma_Home']!, p_type: types['Static']!, p_tag_ids: [tags['Summer']!] }],
      ];
    };

    it('pages 50 ads at a time by default, newest first', async () => {
      const model = await loadModel(ctx.db);
      const rows = await callAdmin(ctx.db, admin, {});
      expect(rows.map((row) => row.id)).toEqual(expected(model, {}).slice(0, 50));
      const next = await callAdmin(ctx.db, admin, { p_limit: 7, p_offset: 50 });
      expect(next.map((row) => row.id)).toEqual(expected(model, {}).slice(50, 57));
      const past = await callAdmin(ctx.db, admin, { p_offset: model.length });
      expect(past).toEqual([]);
    });

    it('includes one whole UTC day at both ends, to the microsecond', async () => {
      const rows = await callAdmin(ctx.db, admin, { p_date_from: '2026-03-10', p_date_to: '2026-03-10' });
      const model = await loadModel(ctx.db);
      expect(rows).toHaveLength(2);
      expect(rows.map((row) => model.find((ad) => ad.id === row.id)!.utc_day)).toEqual(['2026-03-10', '2026-03-10']);
    });

    for (const sort of sorts) {
      it(`returns exactly the matching ads in ${sort} order, with their true total on every row, for each filter`, async () => {
        const model = await loadModel(ctx.db);
        for (const [what, query] of queries()) {
          const want = expected(model, { ...query, p_sort: sort });
          const got = await allPages(ctx.db, admin, { ...query, p_sort: sort });
          expect(got.ids, what).toEqual(want);
          expect(got.totals, what).toEqual(want.length > 0 ? [String(want.length)] : []);
        }
      });
    }

    it('reports the total of the whole library unfiltered, equal to count(*)', async () => {
      const [row] = await callAdmin(ctx.db, admin, { p_limit: 1 });
      const { rows } = await ctx.db.query<{ n: string }>('select count(*) as n from public.ads');
      expect(row!.total_count).toBe(rows[0]!.n);
    });

    it('gives an admin every image path with the names of brand, category, type and tags', async () => {
      const tag = catalogue.tags['UGC']!;
      const ad = await newAd(ctx.db, {
        brandId: catalogue.brands['Delta 100% Pure']!, categoryId: catalogue.categories['Kitchen']!,
        typeId: catalogue.types['Static']!, tagIds: [tag, await systemTagId(ctx.db, 'top_picks')], createdAt: '2031-01-01T00:00:00Z',
      });
      const [row] = await callAdmin(ctx.db, admin, { p_limit: 1 });
      expect(row).toMatchObject({
        id: ad.id, brand_name: 'Delta 100% Pure', category_name: 'Kitchen', type_name: 'Static',
        tag_names: ['Top Picks', 'UGC'], original_path: ad.original_path, display_480_path: ad.display_480_path,
        display_960_path: ad.display_960_path, preview_path: ad.preview_path,
      });
      await ctx.db.query('delete from public.ads where id = $1', [ad.id]);
    });

    it('refuses everyone but an admin with 42501', async () => {
      for (const person of [people.free, people.subscriber, people.trialing, people.flagged]) {
        await expectPgError(callAdmin(ctx.db, userActor(person), {}), {
          code: '42501', detail: 'admin_required', message: 'This operation requires admin privileges.',
        });
      }
      await expectPgError(callAdmin(ctx.db, anon, {}), { code: '42501', message: /permission denied for function get_ads_admin/ });
    });

    const bad: [string, AdminQuery, string][] = [
      ['a limit of 0', { p_limit: 0 }, 'invalid_limit'],
      ['a limit over 100', { p_limit: 101 }, 'invalid_limit'],
      ['a null limit', { p_limit: null }, 'invalid_limit'],
      ['a negative offset', { p_offset: -1 }, 'invalid_offset'],
      ['a null offset', { p_offset: null }, 'invalid_offset'],
      ['an unknown sort', { p_sort: 'random' }, 'unknown_sort'],
      ['a null sort', { p_sort: null }, 'unknown_sort'],
      ['a start date after the end date', { p_date_from: '2026-03-02', p_date_to: '2026-03-01' }, 'invalid_date_range'],
      ['a search of 101 characters', { p_search: 'x'.repeat(101) }, 'search_too_long'],
    ];
    for (const [what, query, detail] of bad) {
      it(`refuses ${what} with ${detail}`, async () => {
        await expectPgError(callAdmin(ctx.db, admin, query), { code: 'P0001', detail });
      });
    }
  });

  describe('admin_update_ads', () => {
    const snapshot = async (ids: string[]) =>
      (await ctx.db.query(
        `select a.id, a.brand_id, a.category_id, a.type_id, a.is_black_friday,
                array(select t.tag_id::text from public.ad_tags t where t.ad_id = a.id order by 1) as tags
           from public.ads a where a.id = any ($1) order by a.id`, [ids])).rows;
    const twoAds = async (typeId: string | null = null) => {
      const brand = await newBrand(ctx.db);
      const category = await newCategory(ctx.db);
      return [
        await newAd(ctx.db, { brandId: brand.id, categoryId: category.id, typeId, createdAt: '2020-01-01T00:00:00Z' }),
        await newAd(ctx.db, { brandId: brand.id, categoryId: category.id, typeId, createdAt: '2020-01-01T00:00:00Z' }),
      ];
    };
    const update = (actor: Actor, args: Record<string, unknown>) => {
      const entries = Object.entries(args);
      const casts: Record<string, string> = {
        p_ids: '::uuid[]', p_add_tag_ids: '::uuid[]', p_remove_tag_ids: '::uuid[]', p_brand_id: '::uuid', p_category_id: '::uuid', p_type_id: '::uuid',
      };
      return queryAs<{ id: string; ok: boolean; error: string | null }>(ctx.db, actor,
        `select * from public.admin_update_ads(${entries.map(([name], i) => `${name} => $${i + 1}${casts[name] ?? ''}`).join(', ')})`,
        entries.map(([, value]) => value));
    };
    const unknownId = '00000000-0000-4000-8000-000000000000';

    it('sets brand and category on the known ids and answers not_found for the unknown one, in the order given', async () => {
      const [a, b] = await twoAds();
      const brand = await newBrand(ctx.db);
      const category = await newCategory(ctx.db);
      const result = await update(admin, { p_ids: [b!.id, unknownId, a!.id, b!.id], p_brand_id: brand.id, p_category_id: category.id });
      expect(result).toEqual([
        { id: b!.id, ok: true, error: null },
        { id: unknownId, ok: false, error: 'not_found' },
        { id: a!.id, ok: true, error: null },
      ]);
      expect((await snapshot([a!.id, b!.id])).map((row) => [(row as { brand_id: string }).brand_id, (row as { category_id: string }).category_id]))
        .toEqual([[brand.id, category.id], [brand.id, category.id]]);
    });

    it('leaves, sets and clears the type', async () => {
      const initial = await newType(ctx.db);
      const other = await newType(ctx.db);
      const [a, b] = await twoAds(initial.id);
      const typeOf = async () => (await snapshot([a!.id, b!.id])).map((row) => (row as { type_id: string | null }).type_id);
      await update(admin, { p_ids: [a!.id, b!.id], p_type_mode: 'no_change', p_brand_id: (await newBrand(ctx.db)).id });
      expect(await typeOf()).toEqual([initial.id, initial.id]);
      await update(admin, { p_ids: [a!.id], p_type_mode: 'set', p_type_id: other.id });
      expect((await snapshot([a!.id]))[0]).toMatchObject({ type_id: other.id });
      await update(admin, { p_ids: [a!.id, b!.id], p_type_mode: 'clear' });
      expect(await typeOf()).toEqual([null, null]);
    });

    it('adds and removes tags, moving the ads onto the Black Friday board with its tag', async () => {
      const [a, b] = await twoAds();
      const keep = await newTag(ctx.db);
      const drop = await newTag(ctx.db);
      const blackFriday = await systemTagId(ctx.db, 'black_friday');
      await update(admin, { p_ids: [a!.id, b!.id], p_add_tag_ids: [drop.id, keep.id] });
      await update(admin, { p_ids: [a!.id, b!.id], p_add_tag_ids: [blackFriday, keep.id], p_remove_tag_ids: [drop.id] });
      const rows = await snapshot([a!.id, b!.id]);
      for (const row of rows) {
        expect(row).toMatchObject({ is_black_friday: true, tags: [keep.id, blackFriday].sort() });
      }
      await update(admin, { p_ids: [a!.id], p_remove_tag_ids: [blackFriday] });
      expect((await snapshot([a!.id]))[0]).toMatchObject({ is_black_friday: false, tags: [keep.id] });
    });

    it('fails the whole call on an unknown brand, category, type or tag, and changes nothing', async () => {
      const [a, b] = await twoAds();
      const tag = await newTag(ctx.db);
      const before = await snapshot([a!.id, b!.id]);
      const ids = [a!.id, b!.id];
      const cases: [Record<string, unknown>, string][] = [
        [{ p_brand_id: unknownId, p_add_tag_ids: [tag.id] }, 'brand_not_found'],
        [{ p_category_id: unknownId, p_type_mode: 'clear' }, 'category_not_found'],
        [{ p_type_mode: 'set', p_type_id: unknownId, p_add_tag_ids: [tag.id] }, 'type_not_found'],
        [{ p_brand_id: (await newBrand(ctx.db)).id, p_add_tag_ids: [tag.id, unknownId] }, 'tag_not_found'],
        [{ p_add_tag_ids: [tag.id], p_remove_tag_ids: [unknownId] }, 'tag_not_found'],
      ];
      for (const [args, detail] of cases) {
        await expectPgError(update(admin, { p_ids: ids, ...args }), { code: 'PT404', detail });
      }
      expect(await snapshot(ids)).toEqual(before);
    });

    it('refuses an empty or oversized selection, an unknown type mode, a set without a type and a tag both added and removed', async () => {
      const [a] = await twoAds();
      const tag = await newTag(ctx.db);
      const before = await snapshot([a!.id]);
      const cases: [Record<string, unknown>, string][] = [
        [{ p_ids: [] }, 'no_ads_selected'],
        [{ p_ids: [a!.id], p_type_mode: 'maybe' }, 'unknown_type_mode'],
        [{ p_ids: [a!.id], p_type_mode: 'set' }, 'type_required'],
        [{ p_ids: [a!.id], p_add_tag_ids: [tag.id], p_remove_tag_ids: [tag.id] }, 'tag_add_remove_overlap'],
        [{ p_ids: [a!.id, ...Array.from({ length: 1000 }, () => randomUUID())], p_type_mode: 'clear' }, 'too_many_ads'],
      ];
      for (const [args, detail] of cases) {
        await expectPgError(update(admin, args), { code: 'P0001', detail });
      }
      expect(await snapshot([a!.id])).toEqual(before);
    });

    it('refuses everyone but an admin with 42501 and changes nothing', async () => {
      const [a] = await twoAds();
      const before = await snapshot([a!.id]);
      const args = { p_ids: [a!.id], p_brand_id: (await newBrand(ctx.db)).id, p_type_mode: 'clear' };
      for (const person of [people.free, people.subscriber]) {
        await expectPgError(update(userActor(person), args), { code: '42501', detail: 'admin_required' });
      }
      await expectPgError(update(anon, args), { code: '42501', message: /permission denied for function admin_update_ads/ });
      expect(await snapshot([a!.id])).toEqual(before);
    });
  });

  describe('admin_delete_ads', () => {
    it('deletes the known ids, answers not_found for the others in the order given, and queues their objects', async () => {
      const brand = await newBrand(ctx.db);
      const category = await newCategory(ctx.db);
      const a = await newAd(ctx.db, { brandId: brand.id, categoryId: category.id, createdAt: '2020-01-01T00:00:00Z' });
      const b = await newAd(ctx.db, { brandId: brand.id, categoryId: category.id, createdAt: '2020-01-01T00:00:00Z' });
      const gone = '00000000-0000-4000-8000-0000000000aa';
      const result = await queryAs(ctx.db, admin, 'select * from public.admin_delete_ads($1::uuid[])', [[gone, b.id, a.id, gone]]);
      expect(result).toEqual([
        { id: gone, ok: false, error: 'not_found' },
        { id: b.id, ok: true, error: null },
        { id: a.id, ok: true, error: null },
      ]);
      expect((await ctx.db.query('select 1 from public.ads where id = any ($1)', [[a.id, b.id]])).rows).toEqual([]);
      const { rows } = await ctx.db.query<{ bucket_id: string; name: string }>(
        'select bucket_id, name from public.storage_deletions where name = any ($1) order by bucket_id, name',
        [[a, b].flatMap((ad) => [ad.original_path, ad.display_480_path, ad.display_960_path, ad.preview_path])]);
      expect(rows).toHaveLength(8);
      expect(rows.filter((row) => row.bucket_id === 'ad-originals').map((row) => row.name).sort()).toEqual(
        [a.original_path, b.original_path].sort());
      const again = await queryAs(ctx.db, admin, 'select * from public.admin_delete_ads($1::uuid[])', [[a.id]]);
      expect(again).toEqual([{ id: a.id, ok: false, error: 'not_found' }]);
    });

    it('refuses an empty or oversized selection, and everyone but an admin, deleting nothing', async () => {
      const brand = await newBrand(ctx.db);
      const category = await newCategory(ctx.db);
      const ad = await newAd(ctx.db, { brandId: brand.id, categoryId: category.id });
      await expectPgError(queryAs(ctx.db, admin, 'select * from public.admin_delete_ads($1::uuid[])', [[]]), {
        code: 'P0001', detail: 'no_ads_selected',
      });
      const tooMany = [ad.id, ...Array.from({ length: 1000 }, () => randomUUID())];
      await expectPgError(queryAs(ctx.db, admin, 'select * from public.admin_delete_ads($1::uuid[])', [tooMany]), {
        code: 'P0001', detail: 'too_many_ads',
      });
      for (const person of [people.free, people.subscriber]) {
        await expectPgError(queryAs(ctx.db, userActor(person), 'select * from public.admin_delete_ads($1::uuid[])', [[ad.id]]), {
          code: '42501', detail: 'admin_required',
        });
      }
      await expectPgError(queryAs(ctx.db, anon, 'select * from public.admin_delete_ads($1::uuid[])', [[ad.id]]), { code: '42501' });
      expect((await ctx.db.query('select 1 from public.ads where id = $1', [ad.id])).rows).toHaveLength(1);
    });
  });

  describe('tag_ads_of_day', () => {
    const flags = async (ids: string[]) =>
      (await ctx.db.query<{ id: string; is_black_friday: boolean }>(
        'select id, is_black_friday from public.ads where id = any ($1)', [ids])).rows.reduce<Record<string, boolean>>(
        (all, row) => ({ ...all, [row.id]: row.is_black_friday }), {});

    it("tags only that UTC day's ads that lack the Black Friday tag, moving them to the Black Friday board", async () => {
      const brand = await newBrand(ctx.db);
      const category = await newCategory(ctx.db);
      const blackFriday = await systemTagId(ctx.db, 'black_friday');
      const at = async (createdAt: string, tagIds: string[] = []) =>
        (await newAd(ctx.db, { brandId: brand.id, categoryId: category.id, createdAt, tagIds })).id;
      const before = await at('2031-05-09T23:59:59.999999Z');
      const first = await at('2031-05-10T00:00:00Z');
      const tagged = await at('2031-05-10T12:00:00Z', [blackFriday]);
      const last = await at('2031-05-10T23:59:59.999999Z');
      const after = await at('2031-05-11T00:00:00Z');
      const [result] = await queryAs<{ r: Record<string, unknown> }>(ctx.db, admin, `select public.tag_ads_of_day('2031-05-10') as r`);
      expect(result!.r).toEqual({ tagged: 2, day: '2031-05-10', message: 'Tagged 2 ad(s) uploaded on 2031-05-10 with Black Friday.' });
      expect(await flags([before, first, tagged, last, after])).toEqual({
        [before]: false, [first]: true, [tagged]: true, [last]: true, [after]: false,
      });
      const [again] = await queryAs<{ r: { tagged: number; message: string } }>(ctx.db, serviceRole, `select public.tag_ads_of_day('2031-05-10') as r`);
      expect(again!.r).toMatchObject({ tagged: 0, message: 'Tagged 0 ad(s) uploaded on 2031-05-10 with Black Friday.' });
    });

    it('takes yesterday (UTC) by default, for the daily job run as the service role', async () => {
      const brand = await newBrand(ctx.db);
      const category = await newCategory(ctx.db);
      const [{ yesterday, noon }] = (await ctx.db.query<{ yesterday: string; noon: string }>(
        `select to_char((now() at time zone 'UTC')::date - 1, 'YYYY-MM-DD') as yesterday,
                to_char(((now() at time zone 'UTC')::date - 1) + time '12:00', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as noon`)).rows as [
        { yesterday: string; noon: string },
      ];
      const ad = await newAd(ctx.db, { brandId: brand.id, categoryId: category.id, createdAt: noon });
      const [result] = await queryAs<{ r: { tagged: number; day: string; message: string } }>(
        ctx.db, serviceRole, 'select public.tag_ads_of_day() as r');
      expect(result!.r.day).toBe(yesterday);
      expect(result!.r.tagged).toBeGreaterThanOrEqual(1);
      expect(result!.r.message).toBe(`Tagged ${result!.r.tagged} ad(s) uploaded on ${yesterday} with Black Friday.`);
      expect(await flags([ad.id])).toEqual({ [ad.id]: true });
    });

    it('refuses everyone but admins and the service role, tagging nothing', async () => {
      const brand = await newBrand(ctx.db);
      const category = await newCategory(ctx.db);
      const ad = await newAd(ctx.db, { brandId: brand.id, categoryId: category.id, createdAt: '2032-02-02T02:02:02Z' });
      for (const person of [people.free, people.subscriber, people.trialing]) {
        await expectPgError(queryAs(ctx.db, userActor(person), `select public.tag_ads_of_day('2032-02-02')`), {
          code: '42501', detail: 'admin_required',
        });
      }
      await expectPgError(queryAs(ctx.db, anon, `select public.tag_ads_of_day('2032-02-02')`), {
        code: '42501', message: /permission denied for function tag_ads_of_day/,
      });
      expect(await flags([ad.id])).toEqual({ [ad.id]: false });
    });
  });
});
