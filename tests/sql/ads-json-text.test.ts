import { randomBytes } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { describeOnEngines } from '../support/engines.ts';
import { anon, expectPgError, queryAs, userActor } from '../support/acting.ts';
import { newAd, newBoard, newBrand, newCategory, newObject, newPersonas, newTag, type Personas, type TestAd } from '../support/factories.ts';

type Answer = Record<string, unknown>;

/**
 * private.ads_json_text puts the answer for many ads together as text: each
 * stored card's text, its clear state and signed links. Its text must be JSON
 * whatever the card holds, say what the card says, and keep the lists' order.
 */
describeOnEngines('ads as JSON text: cards, clear state and signed links put together as text', (ctx) => {
  let people: Personas;
  let plain: TestAd;
  let awkward: TestAd;
  let video: TestAd;
  let videoPath: string;
  /** The signed links of the current window, as the jsonb functions sign them. */
  let linkOf: (bucket: string, path: string) => Promise<string>;

  const cardOf = async (id: string): Promise<Answer> =>
    (await ctx.db.query<{ card: Answer }>('select card from public.ads where id = $1', [id])).rows[0]!.card;
  const asText = async (ids: string[], clear: (boolean | null)[], extra: (Answer | null)[] | null = null) => {
    const { rows } = await ctx.db.query<{ text: string; type: string }>(
      `select private.ads_json_text($1::uuid[], $2::boolean[], $3::jsonb[])::text as text,
              pg_typeof(private.ads_json_text($1::uuid[], $2::boolean[], $3::jsonb[]))::text as type`,
      [ids, clear, extra === null ? null : extra.map((e) => (e === null ? null : JSON.stringify(e)))],
    );
    expect(rows[0]!.type).toBe('json');
    return rows[0]!.text;
  };

  beforeAll(async () => {
    people = await newPersonas(ctx.db);
    // Names a JSON writer must escape (quotes, a backslash, a tab, a line break) and letters outside ASCII.
    const brandId = (await newBrand(ctx.db, `Quote "Q" \\ back\tslash ${randomBytes(3).toString('hex')} Ünïcødé ✓`)).id;
    const categoryId = (await newCategory(ctx.db)).id;
    plain = await newAd(ctx.db, { brandId, categoryId });
    awkward = await newAd(ctx.db, { brandId, categoryId, requiresSubscription: false });
    const tag = await newTag(ctx.db, `Line\nbreak "tag" ${randomBytes(3).toString('hex')}`);
    await ctx.db.query('insert into public.ad_tags (ad_id, tag_id) values ($1, $2)', [awkward.id, tag.id]);
    video = await newAd(ctx.db, { brandId, categoryId });
    videoPath = `${randomBytes(16).toString('hex')}/video.mp4`;
    await newObject(ctx.db, 'ad-videos', videoPath, 'video/mp4');
    await ctx.db.query(`update public.ads set format = 'video', video_path = $2, video_duration_ms = 4000 where id = $1`, [video.id, videoPath]);
    linkOf = async (bucket, path) => (await ctx.db.query<{ url: string }>(
      `select private.signed_object_url($1, $2, private.image_link_window_start(now()),
                                        private.image_link_window_start(now()) + 86400, private.image_link_key()) as url`,
      [bucket, path])).rows[0]!.url;
  });

  it('is JSON that says what each card says, with the links a clear or a locked ad gets, in the order asked', async () => {
    const ids = [video.id, awkward.id, plain.id, awkward.id];
    const clear = [true, true, false, false];
    const page = JSON.parse(await asText(ids, clear)) as Answer[];
    expect(page.map((ad) => ad.id)).toEqual(ids);
    const [clearVideo, clearAwkward, lockedPlain, lockedAwkward] = page as [Answer, Answer, Answer, Answer];

    expect(clearVideo).toEqual({
      ...(await cardOf(video.id)),
      is_clear: true,
      preview_url: null,
      display_480_url: await linkOf('ad-images', video.display_480_path),
      display_960_url: await linkOf('ad-images', video.display_960_path),
      video_url: await linkOf('ad-videos', videoPath),
    });
    const awkwardCard = await cardOf(awkward.id);
    expect(String(awkwardCard.brand_name)).toContain('"Q" \\ back');
    expect(awkwardCard.tag_names).toEqual([expect.stringContaining('"tag"')]);
    expect(clearAwkward).toEqual({
      ...awkwardCard,
      is_clear: true,
      preview_url: null,
      display_480_url: await linkOf('ad-images', awkward.display_480_path),
      display_960_url: await linkOf('ad-images', awkward.display_960_path),
    });
    expect(lockedPlain).toEqual({
      ...(await cardOf(plain.id)),
      is_clear: false,
      preview_url: await linkOf('ad-images', plain.preview_path),
      display_480_url: null,
      display_960_url: null,
    });
    expect(lockedAwkward).toEqual({ ...awkwardCard, is_clear: false, preview_url: await linkOf('ad-images', awkward.preview_path), display_480_url: null, display_960_url: null });
    // A locked video ad names no video.
    const [lockedVideo] = JSON.parse(await asText([video.id], [false])) as [Answer];
    expect(lockedVideo).not.toHaveProperty('video_url');
    expect(JSON.stringify(lockedVideo)).not.toContain('ad-videos');
  });

  it('adds the extra keys asked for each ad, skips ads that do not exist and answers an empty list as []', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    const page = JSON.parse(await asText([plain.id, missing, awkward.id], [true, true, true],
      [{ saved_at: '2026-11-01T00:00:00.000Z', note: 'a "quoted" note' }, { saved_at: 'never' }, {}])) as Answer[];
    expect(page.map((ad) => ad.id)).toEqual([plain.id, awkward.id]);
    expect(page[0]).toMatchObject({ saved_at: '2026-11-01T00:00:00.000Z', note: 'a "quoted" note', is_clear: true });
    expect(page[1]).not.toHaveProperty('saved_at');
    expect(await asText([], [])).toBe('[]');
    // The first ad found has no delimiter before it, whichever ids before it have no ad.
    const firstMissing = JSON.parse(await asText([missing, missing, awkward.id, plain.id], [true, true, true, false])) as Answer[];
    expect(firstMissing.map((ad) => ad.id)).toEqual([awkward.id, plain.id]);
    expect(await asText([missing], [true])).toBe('[]');
  });

  it('writes the text asked for before and after the array, with or without ads, and refuses what is not JSON then', async () => {
    const around = async (ids: string[], before: string | null, after: string | null) => (await ctx.db.query<{ text: string }>(
      'select private.ads_json_text($1::uuid[], array_fill(true, array[cardinality($1::uuid[])]), null, $2, $3)::text as text',
      [ids, before, after])).rows[0]!.text;
    const page = await around([plain.id, awkward.id], '{"ads" : ', ', "next_cursor" : "abc.def"}');
    expect(page.startsWith('{"ads" : [{')).toBe(true);
    expect(JSON.parse(page)).toEqual({ ads: JSON.parse(await asText([plain.id, awkward.id], [true, true])), next_cursor: 'abc.def' });
    expect(await around([], '{"ads" : ', ', "next_cursor" : null}')).toBe('{"ads" : [], "next_cursor" : null}');
    expect(await around([plain.id], null, null)).toBe(await asText([plain.id], [true]));
    await expectPgError(ctx.db.query('select private.ads_json_text($1::uuid[], array[true], null, $2, $3)', [[plain.id], '{"ads": ', '']), { code: '22P02' });
  });

  it('is what ads_json gives as jsonb, so the detail page and the lists describe an ad alike', async () => {
    const ids = [video.id, awkward.id, plain.id];
    const clear = [true, false, true];
    const { rows } = await ctx.db.query<{ same: boolean; page: Answer[] }>(
      `select private.ads_json($1::uuid[], $2::boolean[]) = private.ads_json_text($1::uuid[], $2::boolean[])::jsonb as same,
              private.ads_json($1::uuid[], $2::boolean[]) as page`, [ids, clear]);
    expect(rows[0]!.same).toBe(true);
    expect(rows[0]!.page.map((ad) => ad.id)).toEqual(ids);
    const [detail] = await queryAs<{ ad: Answer }>(ctx.db, userActor(people.subscriber), 'select public.get_ad($1) as ad', [video.id]);
    // The detail adds the ad's facts to what a list says of it.
    expect(detail!.ad).toEqual(expect.objectContaining((JSON.parse(await asText([video.id], [true])) as Answer[])[0]));
  });

  it('answers list_ads and list_collection_ads as json, and is not callable by the API roles', async () => {
    const [listed] = await queryAs<{ type: string }>(ctx.db, userActor(people.subscriber),
      `select pg_typeof(public.list_ads('{"board": "library"}'::jsonb))::text as type`);
    expect(listed!.type).toBe('json');
    const board = await newBoard(ctx.db, people.free, 'Text board');
    await ctx.db.query('insert into public.user_collection_items (collection_id, ad_id) values ($1, $2)', [board, awkward.id]);
    const [saved] = await queryAs<{ type: string; page: { ads: Answer[] } }>(ctx.db, userActor(people.free),
      'select pg_typeof(public.list_collection_ads($1))::text as type, public.list_collection_ads($1) as page', [board]);
    expect(saved!.type).toBe('json');
    expect(saved!.page.ads).toEqual([expect.objectContaining({ id: awkward.id, is_clear: true, saved_at: expect.stringMatching(/Z$/) })]);
    for (const actor of [anon, userActor(people.free), userActor(people.subscriber), userActor(people.admin)]) {
      await expectPgError(queryAs(ctx.db, actor, 'select private.ads_json_text($1::uuid[], $2::boolean[])', [[plain.id], [true]]), { code: '42501' });
    }
  });
});
