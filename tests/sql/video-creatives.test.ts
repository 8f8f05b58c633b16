import { randomBytes } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { describeOnEngines } from '../support/engines.ts';
import { anon, expectPgError, queryAs, userActor, type Actor } from '../support/acting.ts';
import { newAd, newBrand, newCategory, newObject, newPersonas, type Personas } from '../support/factories.ts';

type Answer = Record<string, unknown> & { id: string; is_clear: boolean };

describeOnEngines('video creatives: the video path, its length, the card badge and signed links for clear callers only', (ctx) => {
  let people: Personas;
  let brandId: string;
  let categoryId: string;
  /** A premium video ad outside the free sample (locked to non-payers), and a video ad free to everyone. */
  let lockedVideoId: string;
  let freeVideoId: string;
  const videoPathOf = new Map<string, string>();

  const newVideo = async (extension = 'webm') => {
    const name = `${randomBytes(16).toString('hex')}/video.${extension}`;
    await newObject(ctx.db, 'ad-videos', name, `video/${extension}`);
    return name;
  };
  const setVideo = async (adId: string, path: string, durationMs = 4000) => {
    await ctx.db.query(`update public.ads set format = 'video', video_path = $2, video_duration_ms = $3 where id = $1`, [adId, path, durationMs]);
    videoPathOf.set(adId, path);
  };
  const actors: Array<[string, Actor, boolean]> = [];

  beforeAll(async () => {
    people = await newPersonas(ctx.db);
    brandId = (await newBrand(ctx.db)).id;
    categoryId = (await newCategory(ctx.db)).id;
    // The first premium ad joins the free sample; the next ones stay locked to non-payers.
    await newAd(ctx.db, { brandId, categoryId });
    lockedVideoId = (await newAd(ctx.db, { brandId, categoryId })).id;
    freeVideoId = (await newAd(ctx.db, { brandId, categoryId, requiresSubscription: false })).id;
    await setVideo(lockedVideoId, await newVideo('webm'), 3500);
    await setVideo(freeVideoId, await newVideo('mp4'), 12_000);
    const { rows } = await ctx.db.query<{ free_sample: boolean }>('select free_sample from public.ads where id = $1', [lockedVideoId]);
    expect(rows[0]!.free_sample).toBe(false);
    actors.push(
      ['anonymous', anon, false],
      ['free', userActor(people.free), false],
      ['subscriber', userActor(people.subscriber), true],
      ['admin', userActor(people.admin), true],
    );
  });

  const listed = async (actor: Actor): Promise<Answer[]> => {
    const [row] = await queryAs<{ page: { ads: Answer[] } }>(ctx.db, actor,
      'select public.list_ads($1::jsonb) as page', [JSON.stringify({ board: 'library', brand_ids: [brandId] })]);
    return row!.page.ads;
  };
  const detail = async (actor: Actor, id: string): Promise<Answer> =>
    (await queryAs<{ ad: Answer }>(ctx.db, actor, 'select public.get_ad($1) as ad', [id]))[0]!.ad;

  it('gives a signed video link, in the display links\' window, only to callers who see the video ad clear', async () => {
    for (const [who, actor, paying] of actors) {
      for (const ad of [...(await listed(actor)), await detail(actor, lockedVideoId), await detail(actor, freeVideoId)]) {
        if (!videoPathOf.has(ad.id)) {
          expect(ad, who).not.toHaveProperty('video_url');
          expect(ad, who).not.toHaveProperty('video_duration_ms');
          continue;
        }
        expect(ad.video_duration_ms, who).toBe(ad.id === freeVideoId ? 12_000 : 3500);
        const clear = ad.id === freeVideoId || paying;
        expect(ad.is_clear, who).toBe(clear);
        if (clear) {
          const url = String(ad.video_url);
          expect(url.startsWith(`object/sign/ad-videos/${videoPathOf.get(ad.id)}?token=`), who).toBe(true);
          const claims = JSON.parse(Buffer.from(url.split('?token=')[1]!.split('.')[1]!, 'base64url').toString()) as { iat: number; exp: number };
          const display = JSON.parse(Buffer.from(String(ad.display_960_url).split('?token=')[1]!.split('.')[1]!, 'base64url').toString()) as { iat: number; exp: number };
          expect(claims, who).toEqual({ url: `ad-videos/${videoPathOf.get(ad.id)}`, iat: display.iat, exp: display.exp });
          expect(claims.exp - claims.iat, who).toBe(86_400);
        } else {
          expect(ad, who).not.toHaveProperty('video_url');
          expect(JSON.stringify(ad), who).not.toContain(videoPathOf.get(ad.id)!);
          expect(JSON.stringify(ad), who).not.toContain('ad-videos');
          expect(ad.preview_url, who).toMatch(/^object\/sign\/ad-images\/previews\//);
        }
      }
    }
  });

  it('never lets an API role select the video path, nor read or list the video bucket unless admin', async () => {
    for (const [who, actor] of actors.slice(0, 3)) {
      await expectPgError(queryAs(ctx.db, actor, 'select video_path from public.ads limit 1'), { code: '42501' });
      expect(await queryAs(ctx.db, actor, `select name from storage.objects where bucket_id = 'ad-videos'`), who).toEqual([]);
      await expectPgError(
        queryAs(ctx.db, actor, `insert into storage.objects (bucket_id, name, metadata) values ('ad-videos', 'x/video.webm', '{}')`),
        { code: '42501' },
      );
    }
    const admin = userActor(people.admin);
    await expectPgError(queryAs(ctx.db, admin, 'select video_path from public.ads limit 1'), { code: '42501' });
    const listedByAdmin = await queryAs<{ name: string }>(ctx.db, admin, `select name from storage.objects where bucket_id = 'ad-videos' order by name`);
    expect(listedByAdmin.map((row) => row.name)).toEqual(expect.arrayContaining([...videoPathOf.values()]));
  });

  it('downloads a video ad\'s video, not its poster, for a subscriber, for 5 minutes', async () => {
    const [row] = await queryAs<{ d: { url: string; file_name: string } }>(ctx.db, userActor(people.subscriber),
      'select public.get_ad_original_download($1) as d', [lockedVideoId]);
    expect(row!.d.url.startsWith(`object/sign/ad-videos/${videoPathOf.get(lockedVideoId)}?token=`)).toBe(true);
    expect(row!.d.file_name).toMatch(/\.webm$/);
    await expectPgError(queryAs(ctx.db, userActor(people.free), 'select public.get_ad_original_download($1)', [lockedVideoId]),
      { code: '42501', detail: 'subscription_required' });
  });

  it('holds the rules in SQL: stored video, name, length bounds, both or neither, format video', async () => {
    const ad = await newAd(ctx.db, { brandId, categoryId });
    const update = (sql: string, params: unknown[] = []) => ctx.db.query(`update public.ads set ${sql} where id = $1`, [ad.id, ...params]);
    const stored = await newVideo();
    await expectPgError(update(`format = 'video', video_path = 'missing/video.webm', video_duration_ms = 3000`), { detail: 'video_missing' });
    await expectPgError(update(`format = 'video', video_path = 'a/../b.webm', video_duration_ms = 3000`), { message: /ads_video_path_format/ });
    await expectPgError(update(`format = 'video', video_path = 'a/video.mov', video_duration_ms = 3000`), { message: /ads_video_path_format/ });
    await expectPgError(update(`format = 'video', video_path = $2, video_duration_ms = 499`, [stored]), { message: /ads_video_duration_bounds/ });
    await expectPgError(update(`format = 'video', video_path = $2, video_duration_ms = 600001`, [stored]), { message: /ads_video_duration_bounds/ });
    await expectPgError(update(`format = 'video', video_path = $2`, [stored]), { message: /ads_video_path_and_duration/ });
    await expectPgError(update(`format = 'video', video_duration_ms = 3000`), { message: /ads_video_path_and_duration/ });
    await expectPgError(update(`format = 'single_image', video_path = $2, video_duration_ms = 3000`, [stored]), { message: /ads_video_is_format_video/ });
    await expectPgError(update(`format = null, video_path = $2, video_duration_ms = 3000`, [stored]), { message: /ads_video_is_format_video/ });
    await update(`format = 'video', video_path = $2, video_duration_ms = 500`, [stored]);
    // The admin's fact edit that would take the format away is refused with its sentence.
    await expectPgError(
      queryAs(ctx.db, userActor(people.admin), `select public.admin_update_ads(array[$1::uuid], p_facts => '{"format": "carousel"}'::jsonb)`, [ad.id]),
      { detail: 'invalid_facts', message: /An ad with a video must keep the format video/ },
    );
    // A replaced and a deleted ad's video are queued for removal.
    const replacement = await newVideo('mp4');
    await update(`video_path = $2`, [replacement]);
    await ctx.db.query('delete from public.ads where id = $1', [ad.id]);
    const { rows } = await ctx.db.query<{ name: string }>(
      `select name from public.storage_deletions where bucket_id = 'ad-videos' and name = any($1::text[]) order by id`, [[stored, replacement]]);
    expect(rows.map((row) => row.name)).toEqual([stored, replacement]);
  });

  it('lets only an admin write a video ad through the API role, and keeps the card in step with the length', async () => {
    const ad = await newAd(ctx.db, { brandId, categoryId });
    const path = await newVideo();
    // Row-level security: a subscriber's update finds no row to change.
    expect(await queryAs(ctx.db, userActor(people.subscriber),
      `update public.ads set format = 'video', video_path = $2, video_duration_ms = 2000 where id = $1 returning id`, [ad.id, path])).toEqual([]);
    expect(await queryAs(ctx.db, userActor(people.admin),
      `update public.ads set format = 'video', video_path = $2, video_duration_ms = 2000 where id = $1 returning id`, [ad.id, path])).toEqual([{ id: ad.id }]);
    const card = async () => (await ctx.db.query<{ card: Record<string, unknown> }>('select card from public.ads where id = $1', [ad.id])).rows[0]!.card;
    expect((await card()).video_duration_ms).toBe(2000);
    await ctx.db.query('update public.ads set video_duration_ms = 2500 where id = $1', [ad.id]);
    expect((await card()).video_duration_ms).toBe(2500);
    await ctx.db.query('update public.ads set video_path = null, video_duration_ms = null where id = $1', [ad.id]);
    expect(await card()).not.toHaveProperty('video_duration_ms');
    const { rows } = await ctx.db.query<{ stale: number }>('select count(*)::int as stale from public.ads a where a.card::jsonb is distinct from private.ad_card(a)');
    expect(rows[0]!.stale).toBe(0);
  });

  it('has the private ad-videos bucket with its size limit and the two video types', async () => {
    const { rows } = await ctx.db.query(`select id, public, file_size_limit::text as file_size_limit, allowed_mime_types from storage.buckets where id = 'ad-videos'`);
    expect(rows).toEqual([{ id: 'ad-videos', public: false, file_size_limit: '52428800', allowed_mime_types: ['video/mp4', 'video/webm'] }]);
  });
});
