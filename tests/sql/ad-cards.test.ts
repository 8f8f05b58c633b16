import { beforeAll, describe, expect, it } from 'vitest';
import { describeOnEngines } from '../support/engines.ts';
import { anon, expectPgError, queryAs, userActor, type Actor } from '../support/acting.ts';
import {
  newAd,
  newBrand,
  newCategory,
  newObject,
  newPersonas,
  newTag,
  newType,
  systemTagId,
  type Personas,
} from '../support/factories.ts';
import type { ListedAd } from '../support/listed-ad.ts';

/** The fields of an ad that its stored card carries, as get_ad returns them. */
type CardFields = Omit<
  ListedAd,
  'id' | 'thumbhash' | 'preview_path' | 'is_clear' | 'preview_url' | 'display_480_url' | 'display_960_url' | 'saved_at'
>;

const unique = () => Math.random().toString(36).slice(2, 10);

describeOnEngines('ad cards: what lists show of an ad follows every write', (ctx) => {
  let people: Personas;
  let admin: Actor;
  let subscriber: Actor;

  async function shown(adId: string): Promise<CardFields> {
    const [row] = await queryAs<{ ad: CardFields | null }>(ctx.db, subscriber, 'select public.get_ad($1) as ad', [adId]);
    expect(row!.ad).not.toBeNull();
    return row!.ad!;
  }

  async function listed(adId: string): Promise<CardFields> {
    const [row] = await queryAs<{ page: { ads: (CardFields & { id: string })[] } }>(
      ctx.db, subscriber, `select public.list_ads('{"board": "library"}'::jsonb) as page`);
    const ad = row!.page.ads.find((candidate) => candidate.id === adId);
    expect(ad).toBeDefined();
    return ad!;
  }

  /** Ads whose stored card differs from one built now from the tables. */
  async function staleCards(): Promise<string[]> {
    const { rows } = await ctx.db.query<{ id: string }>(
      'select a.id from public.ads a where a.card::jsonb is distinct from private.ad_card(a) order by a.id');
    return rows.map((row) => row.id);
  }

  beforeAll(async () => {
    people = await newPersonas(ctx.db);
    admin = userActor(people.admin);
    subscriber = userActor(people.subscriber);
  });

  it('shows a new ad\'s brand, category and type names and its tags sorted regardless of case', async () => {
    const brand = await newBrand(ctx.db, `Card Brand ${unique()}`);
    const category = await newCategory(ctx.db, `Card Category ${unique()}`);
    const type = await newType(ctx.db, `Card Type ${unique()}`);
    const tags = [await newTag(ctx.db, `zeta ${unique()}`), await newTag(ctx.db, `Alpha ${unique()}`), await newTag(ctx.db, `beta ${unique()}`)];
    const ad = await newAd(ctx.db, {
      brandId: brand.id, categoryId: category.id, typeId: type.id, tagIds: tags.map((tag) => tag.id),
      createdAt: '2026-03-04T05:06:07.123456Z', width: 800, height: 1000,
    });
    const expected: CardFields = {
      brand_id: brand.id, brand_name: brand.name, brand_logo_path: null,
      category_id: category.id, category_name: category.name,
      type_id: type.id, type_name: type.name,
      tag_names: [tags[1]!.name, tags[2]!.name, tags[0]!.name],
      created_at: '2026-03-04T05:06:07.123456Z',
      requires_subscription: true, is_black_friday: false, is_top_picks: false, width: 800, height: 1000,
      platforms: null, first_seen: null, last_seen: null, still_running: false,
    };
    expect(await shown(ad.id)).toMatchObject(expected);
    expect(await listed(ad.id)).toMatchObject(expected);
  });

  it('adds and removes tag names as an admin tags and untags the ad', async () => {
    const ad = await newAd(ctx.db, { brandId: (await newBrand(ctx.db)).id, categoryId: (await newCategory(ctx.db)).id });
    const first = await newTag(ctx.db, `b ${unique()}`);
    const second = await newTag(ctx.db, `A ${unique()}`);
    expect((await shown(ad.id)).tag_names).toEqual([]);
    await queryAs(ctx.db, admin, 'insert into public.ad_tags (ad_id, tag_id) values ($1, $2), ($1, $3)', [ad.id, first.id, second.id]);
    expect((await shown(ad.id)).tag_names).toEqual([second.name, first.name]);
    await queryAs(ctx.db, admin, 'delete from public.ad_tags where ad_id = $1 and tag_id = $2', [ad.id, second.id]);
    expect((await shown(ad.id)).tag_names).toEqual([first.name]);
  });

  it('puts an ad on a themed board and takes it off with its system tag, on the card too', async () => {
    const ad = await newAd(ctx.db, { brandId: (await newBrand(ctx.db)).id, categoryId: (await newCategory(ctx.db)).id });
    const topPicks = await systemTagId(ctx.db, 'top_picks');
    await queryAs(ctx.db, admin, 'insert into public.ad_tags (ad_id, tag_id) values ($1, $2)', [ad.id, topPicks]);
    expect(await shown(ad.id)).toMatchObject({ is_top_picks: true, tag_names: ['Top Picks'] });
    await queryAs(ctx.db, admin, 'delete from public.ad_tags where ad_id = $1 and tag_id = $2', [ad.id, topPicks]);
    expect(await shown(ad.id)).toMatchObject({ is_top_picks: false, tag_names: [] });
  });

  it('shows a renamed brand, category, type and tag and a brand\'s new logo on every ad that carries them, and on no other', async () => {
    const brand = await newBrand(ctx.db);
    const category = await newCategory(ctx.db);
    const type = await newType(ctx.db);
    const tag = await newTag(ctx.db);
    const [one, two] = [
      await newAd(ctx.db, { brandId: brand.id, categoryId: category.id, typeId: type.id, tagIds: [tag.id] }),
      await newAd(ctx.db, { brandId: brand.id, categoryId: category.id, typeId: type.id, tagIds: [tag.id] }),
    ];
    const bystander = await newAd(ctx.db, { brandId: (await newBrand(ctx.db)).id, categoryId: (await newCategory(ctx.db)).id });
    const bystanderBefore = await shown(bystander.id);

    // Checked after each write: a later write to the same ads must not be what repairs an earlier one's cards.
    const names = { brand: `Renamed brand ${unique()}`, category: `Renamed category ${unique()}`, type: `Renamed type ${unique()}`, tag: `Renamed tag ${unique()}` };
    const logo = `${brand.id}/logo-${unique()}.png`;
    await newObject(ctx.db, 'brand-logos', logo, 'image/png');
    const writes: [string, unknown[], Partial<CardFields>][] = [
      ['update public.tags set name = $2 where id = $1', [tag.id, names.tag], { tag_names: [names.tag] }],
      ['update public.types set name = $2 where id = $1', [type.id, names.type], { type_name: names.type }],
      ['update public.categories set name = $2 where id = $1', [category.id, names.category], { category_name: names.category }],
      ['update public.brands set name = $2 where id = $1', [brand.id, names.brand], { brand_name: names.brand }],
      ['update public.brands set logo_path = $2 where id = $1', [brand.id, logo], { brand_logo_path: logo }],
    ];
    for (const [sql, params, expected] of writes) {
      await queryAs(ctx.db, admin, sql, params);
      for (const ad of [one!, two!]) expect(await shown(ad.id)).toMatchObject(expected);
    }
    expect(await shown(bystander.id)).toEqual(bystanderBefore);
  });

  it('drops a deleted type and a deleted tag from the cards that showed them', async () => {
    const type = await newType(ctx.db);
    const tag = await newTag(ctx.db);
    const kept = await newTag(ctx.db);
    const ad = await newAd(ctx.db, {
      brandId: (await newBrand(ctx.db)).id, categoryId: (await newCategory(ctx.db)).id, typeId: type.id, tagIds: [tag.id, kept.id],
    });
    await queryAs(ctx.db, admin, 'delete from public.types where id = $1', [type.id]);
    await queryAs(ctx.db, admin, 'delete from public.tags where id = $1', [tag.id]);
    expect(await shown(ad.id)).toMatchObject({ type_id: null, type_name: null, tag_names: [kept.name] });
  });

  it('follows an admin\'s edit of the brand, category, type and subscription requirement, and the owner\'s change of date and size', async () => {
    const ad = await newAd(ctx.db, { brandId: (await newBrand(ctx.db)).id, categoryId: (await newCategory(ctx.db)).id });
    const brand = await newBrand(ctx.db);
    const category = await newCategory(ctx.db);
    const type = await newType(ctx.db);
    await queryAs(ctx.db, admin,
      'update public.ads set brand_id = $2, category_id = $3, type_id = $4, requires_subscription = false where id = $1',
      [ad.id, brand.id, category.id, type.id]);
    await ctx.db.query(
      `update public.ads set created_at = '2025-12-31T23:59:59.5Z', width = 640, height = 480 where id = $1`, [ad.id]);
    expect(await shown(ad.id)).toMatchObject({
      brand_id: brand.id, brand_name: brand.name, category_id: category.id, category_name: category.name,
      type_id: type.id, type_name: type.name, requires_subscription: false,
      created_at: '2025-12-31T23:59:59.500000Z', width: 640, height: 480,
    });
  });

  it('leaves no stored card that differs from one built from the tables after all of the above', async () => {
    expect(await staleCards()).toEqual([]);
  });

  describe('the card column itself', () => {
    it('cannot be read by any API role, only through the listing functions', async () => {
      for (const actor of [anon, userActor(people.free), subscriber, admin]) {
        await expectPgError(queryAs(ctx.db, actor, 'select card from public.ads limit 1'), { code: '42501' });
      }
    });

    it('cannot be written by an admin: the update is refused and the card stays the one built from the tables', async () => {
      const ad = await newAd(ctx.db, { brandId: (await newBrand(ctx.db)).id, categoryId: (await newCategory(ctx.db)).id });
      await expectPgError(
        queryAs(ctx.db, admin, `update public.ads set card = '{}'::jsonb where id = $1`, [ad.id]), { code: '42501' });
      expect(await staleCards()).toEqual([]);
    });

    it('is required: a row written with the triggers off and no card is refused', async () => {
      const brand = await newBrand(ctx.db);
      const category = await newCategory(ctx.db);
      await expectPgError(
        ctx.db.transaction(async (tx) => {
          await tx.query(`select set_config('session_replication_role', 'replica', true)`);
          await tx.query(
            `insert into public.ads (brand_id, category_id, original_path, display_480_path, display_960_path, preview_path,
                                     width, height, thumbhash)
             values ($1, $2, 'x/o.jpg', 'x/480.webp', 'x/960.webp', 'previews/x.webp', 10, 10, 'YJqGPQw7sFlslqhFafSE+Q6oJ1h2iHB2Rw==')`,
            [brand.id, category.id]);
        }),
        { code: '23502' },
      );
    });
  });
});
