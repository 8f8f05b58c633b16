import { randomBytes } from 'node:crypto';
import type { Page, Response } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect } from 'vitest';
import { DEMO_ACCOUNTS, seedDemoAccounts } from '../local/seed/demo-accounts.ts';
import { muxWebm, vp8FrameOfWebp } from '../local/seed/webm-muxer.ts';
import type { LocalStack } from '../local/stack.ts';
import { journeyWithLibrary } from './support/journey.ts';
import { provisionAccount, signIn } from './support/signed-in.ts';

const ADMIN = DEMO_ACCOUNTS.find((account) => account.role === 'admin')!;
const FREE = { email: 'free-video@obyect.e2e', password: 'e2e-free-video-password' };
const SUBSCRIBER = { email: 'subscriber-video@obyect.e2e', password: 'e2e-subscriber-video-password' };
const POLL = { timeout: 30_000, interval: 250 };
const ITEMS = '[data-testid="upload-item"]';

/** A WebM of a white disc moving over a colour, the muxer's own kind: every frame a VP8 key frame. */
async function movingDiscWebm(colour: string, seconds: number, fps = 12, width = 360, height = 450): Promise<Buffer> {
  const frames: Uint8Array[] = [];
  for (let index = 0; index < seconds * fps; index += 1) {
    const x = Math.round(40 + ((width - 80) * index) / (seconds * fps));
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="${colour}"/>
      <circle cx="${x}" cy="${height / 2}" r="36" fill="#ffffff"/></svg>`;
    frames.push(vp8FrameOfWebp(new Uint8Array(await sharp(Buffer.from(svg)).webp({ quality: 60 }).toBuffer())));
  }
  return Buffer.from(muxWebm({ width, height, fps, frames }));
}

/** Three premium video ads (only the library's first premium ad is in the free sample, so these are locked to a free account). */
async function insertVideoAds(stack: LocalStack): Promise<string[]> {
  const one = async (sql: string, params: unknown[]) => (await stack.db.query<{ id: string }>(sql, params)).rows[0]!.id;
  const suffix = randomBytes(3).toString('hex');
  const brandId = await one('insert into public.brands (name) values ($1) returning id', [`Reel ${suffix}`]);
  const categoryId = await one('insert into public.categories (name) values ($1) returning id', [`Video ${suffix}`]);
  const ids: string[] = [];
  for (const [index, colour] of ['#264653', '#e76f51', '#2a9d8f'].entries()) {
    const folder = randomBytes(16).toString('hex');
    const poster = await sharp({ create: { width: 360, height: 450, channels: 3, background: colour } }).png().toBuffer();
    const paths = { original: `${folder}/original.webp`, d480: `${folder}/480.webp`, d960: `${folder}/960.webp`, preview: `previews/${randomBytes(16).toString('hex')}.webp`, video: `${folder}/video.webm` };
    await stack.storage.writeObject('ad-originals', paths.original, await sharp(poster).webp().toBuffer(), 'image/webp');
    await stack.storage.writeObject('ad-images', paths.d480, await sharp(poster).webp().toBuffer(), 'image/webp');
    await stack.storage.writeObject('ad-images', paths.d960, await sharp(poster).webp().toBuffer(), 'image/webp');
    await stack.storage.writeObject('ad-images', paths.preview, await sharp(poster).resize(32).blur(2).webp().toBuffer(), 'image/webp');
    await stack.storage.writeObject('ad-videos', paths.video, await movingDiscWebm(colour, 2), 'video/webm');
    ids.push(
      await one(
        `insert into public.ads (brand_id, category_id, created_at, requires_subscription, original_path, display_480_path, display_960_path,
                                 preview_path, width, height, thumbhash, format, video_path, video_duration_ms)
         values ($1, $2, now() - make_interval(secs => $3), true, $4, $5, $6, $7, 360, 450, 'YJqGPQw7sFlslqhFafSE+Q6oJ1h2iHB2Rw==', 'video', $8, 2000)
         returning id`,
        [brandId, categoryId, 30 + index, paths.original, paths.d480, paths.d960, paths.preview, paths.video],
      ),
    );
  }
  return ids;
}

const journey = journeyWithLibrary(async (stack) => {
  await seedDemoAccounts(stack.db);
  await provisionAccount(stack, 'free', FREE.email, FREE.password);
  await provisionAccount(stack, 'subscriber', SUBSCRIBER.email, SUBSCRIBER.password);
  const suffix = randomBytes(3).toString('hex');
  return { videoAdIds: await insertVideoAds(stack), brand: `Motion ${suffix}`, category: `Clips ${suffix}` };
});

/** Whether a video element is playing: not paused, time moving. */
const isPlaying = (page: Page, selector: string) =>
  page.locator(selector).first().evaluate(async (element) => {
    const video = element as HTMLVideoElement;
    const before = video.currentTime;
    await new Promise((resolve) => setTimeout(resolve, 300));
    return !video.paused && video.currentTime > before && video.readyState >= 2;
  });

journey('the admin uploads a WebM: it becomes a video ad that plays on hover in the grid, and with controls on its page, where seeking reads ranges of its signed link', async ({ page, stack, library }) => {
  // A brand and category of this attempt's own: a retry after an attempt that added them would be refused them.
  const brand = `${library.brand} ${randomBytes(3).toString('hex')}`;
  const category = `${library.category} ${randomBytes(3).toString('hex')}`;
  await signIn(page, stack, ADMIN);
  await page.goto('/admin');
  const upload = page.getByRole('region', { name: 'Bulk upload' });
  await upload.waitFor();
  await upload.getByPlaceholder('New brand').fill(brand);
  await upload.getByRole('button', { name: 'Add brand' }).click();
  await page.getByText('Brand added').waitFor();
  await upload.getByPlaceholder('New category').fill(category);
  await upload.getByRole('button', { name: 'Add category' }).click();
  await page.getByText('Category added').waitFor();
  await expect.poll(() => upload.getByRole('combobox', { name: 'Brand', exact: true }).inputValue(), POLL).not.toBe('');
  await expect.poll(() => upload.getByRole('combobox', { name: 'Category', exact: true }).inputValue(), POLL).not.toBe('');

  const webm = await movingDiscWebm('#6d597a', 4);
  // The same video twice: the second is flagged by its poster frame as a repeat of the first, and skipped.
  await upload.locator('input[type="file"]').setInputFiles([
    { name: 'Spring reel.webm', mimeType: 'video/webm', buffer: webm },
    { name: 'Spring reel again.webm', mimeType: 'video/webm', buffer: webm },
  ]);
  await expect.poll(() => upload.locator(ITEMS).count(), POLL).toBe(2);
  const repeat = upload.locator(ITEMS).nth(1).getByTestId('duplicate-notice');
  await repeat.waitFor({ timeout: 60_000 });
  expect(await repeat.textContent()).toContain('Looks like another file in this list');
  expect(await upload.locator(ITEMS).nth(0).getByTestId('duplicate-notice').count()).toBe(0);
  await repeat.getByRole('button', { name: 'Skip Spring_reel_again.webm' }).click();
  await expect.poll(() => upload.locator(ITEMS).count(), POLL).toBe(1);
  await upload.getByRole('button', { name: 'Upload all' }).click();
  await page.getByText('Processed all files.').waitFor({ timeout: 120_000 });
  expect(await upload.locator(`${ITEMS}[data-status="done"]`).count()).toBe(1);

  // The row: format video, its length read by the browser, its poster's size; the stored video is the file itself.
  const { rows } = await stack.db.query<{ id: string; format: string; video_path: string; video_duration_ms: number; width: number; height: number; original_path: string }>(
    `select a.id, a.format, a.video_path, a.video_duration_ms, a.width, a.height, a.original_path
       from public.ads a join public.brands b on b.id = a.brand_id where b.name = $1`,
    [brand],
  );
  expect(rows).toHaveLength(1);
  const ad = rows[0]!;
  expect(ad).toMatchObject({ format: 'video', width: 360, height: 450 });
  expect(ad.video_duration_ms).toBe(4000);
  expect(ad.video_path).toMatch(/^[0-9a-f]{32}\/video\.webm$/);
  expect(ad.original_path).toBe(ad.video_path.replace('video.webm', 'original.webp'));
  const stored = await stack.db.query<{ mimetype: string; size: string }>(
    `select metadata->>'mimetype' as mimetype, metadata->>'size' as size from storage.objects where bucket_id = 'ad-videos' and name = $1`, [ad.video_path]);
  expect(stored.rows[0]).toMatchObject({ mimetype: 'video/webm' });
  expect(Number(stored.rows[0]!.size)).toBe(webm.length);

  // Every read of the video, from the grid on: Chromium asks for ranges (206) of the signed link.
  const ranges: Response[] = [];
  page.on('response', (response) => {
    if (response.url().includes('/storage/v1/object/sign/ad-videos/') && response.status() === 206) ranges.push(response);
  });

  // The grid: the badge, and the video playing muted while the pointer is over the card.
  await page.goto('/');
  const card = page.locator(`[data-testid="ad-card"][data-ad-id="${ad.id}"]`);
  await card.waitFor();
  expect(await card.getByTestId('video-duration').getAttribute('aria-label')).toBe('Video, 0:04');
  expect(await card.locator('video').count()).toBe(0);
  // The card's player is a chunk of its own, loaded with the first clear video card.
  await card.getByTestId('card-video-box').waitFor({ state: 'attached' });
  // The box once the grid has settled in view (two reads a frame apart agree); playing must not move it.
  await card.scrollIntoViewIfNeeded();
  const settledBox = async () => {
    const first = await card.locator('[data-card-primary]').boundingBox();
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const second = await card.locator('[data-card-primary]').boundingBox();
    return JSON.stringify(first) === JSON.stringify(second) ? second : null;
  };
  await expect.poll(settledBox, POLL).not.toBeNull();
  const box = await settledBox();
  await card.hover();
  await card.getByTestId('card-video').waitFor();
  await expect.poll(() => isPlaying(page, `[data-ad-id="${ad.id}"] [data-testid="card-video"]`), POLL).toBe(true);
  expect(await card.getByTestId('card-video').evaluate((video) => (video as HTMLVideoElement).muted)).toBe(true);
  expect(await card.locator('[data-card-primary]').boundingBox()).toEqual(box);
  await page.mouse.move(1, 1);
  await expect.poll(() => card.locator('video').count(), POLL).toBe(0);

  // The ad's page: the video with controls; a seek lands where asked and is served as a range of the signed link.
  await card.locator('[data-card-primary]').click();
  const video = page.getByTestId('ad-detail-video');
  await video.waitFor();
  expect(await video.evaluate((element) => (element as HTMLVideoElement).controls)).toBe(true);
  await expect.poll(() => video.evaluate((element) => (element as HTMLVideoElement).readyState), POLL).toBeGreaterThanOrEqual(1);
  expect(await video.evaluate((element) => Math.round((element as HTMLVideoElement).duration * 1000))).toBe(4000);
  const landed = await video.evaluate(
    (element) =>
      new Promise<number>((resolve) => {
        const player = element as HTMLVideoElement;
        player.pause();
        player.addEventListener('seeked', () => resolve(player.currentTime), { once: true });
        player.currentTime = 2.5;
      }),
  );
  expect(landed).toBeCloseTo(2.5, 1);
  // It plays on from there.
  await video.evaluate((element) => (element as HTMLVideoElement).play());
  await expect.poll(() => isPlaying(page, '[data-testid="ad-detail-video"]'), POLL).toBe(true);
  expect(ranges.length).toBeGreaterThan(0);
  expect(ranges.every((response) => /^bytes \d+-\d+\/\d+$/.test(response.headers()['content-range'] ?? ''))).toBe(true);
  // A range from the middle of the file, as a seek past what is buffered asks for it.
  const middle = await video.evaluate(async (element, size) => {
    const response = await fetch((element as HTMLVideoElement).currentSrc, { headers: { range: `bytes=${size - 2000}-${size - 1001}` } });
    return { status: response.status, range: response.headers.get('content-range'), length: (await response.arrayBuffer()).byteLength };
  }, webm.length);
  expect(middle).toEqual({ status: 206, range: `bytes ${webm.length - 2000}-${webm.length - 1001}/${webm.length}`, length: 1000 });
});

journey('a free account sees a locked video ad\'s blurred poster and its length, and no API gives it the video', async ({ page, stack, library }) => {
  const bodies: string[] = [];
  page.on('response', async (response) => {
    if (!/\/(rest|storage|functions|realtime)\/v1\//.test(response.url())) return;
    bodies.push(`${response.url()} ${await response.text().catch(() => '')}`);
  });
  await signIn(page, stack, FREE);
  await page.goto('/');
  const lockedId = library.videoAdIds[0]!;
  const card = page.locator(`[data-testid="ad-card"][data-ad-id="${lockedId}"]`);
  await card.waitFor();
  expect(await card.getAttribute('data-locked')).toBe('true');
  expect(await card.getByTestId('video-duration').getAttribute('aria-label')).toBe('Video, 0:02');
  await card.locator('img[data-preview="true"]').waitFor({ state: 'attached' });
  expect(await card.locator('img[data-preview="true"]').getAttribute('src')).toMatch(/\/object\/sign\/ad-images\/previews\//);
  await card.hover();
  await page.waitForTimeout(500);
  expect(await page.locator('video').count()).toBe(0);

  // The ad's page, opened by address: the blurred poster under the lock, no player.
  await page.goto(`/ads/${lockedId}`);
  await page.getByTestId('ad-detail').getByText('Unlock').first().waitFor();
  expect(await page.getByTestId('ad-detail-video').count()).toBe(0);
  expect(await page.locator('video').count()).toBe(0);
  expect(bodies.length).toBeGreaterThan(0);
  expect(bodies.filter((body) => body.includes('ad-videos') || body.includes('video_url'))).toEqual([]);

  // Asked directly with the free account's token: rest, rpc and storage give no video link or file.
  const session = await (await fetch(`${stack.url}/auth/v1/token?grant_type=password`, {
    method: 'POST', headers: { apikey: stack.config.anonKey, 'content-type': 'application/json' }, body: JSON.stringify(FREE),
  })).json() as { access_token: string };
  const headers = { apikey: stack.config.anonKey, authorization: `Bearer ${session.access_token}`, 'content-type': 'application/json' };
  const api = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${stack.url}${path}`, { ...init, headers: { ...headers, ...(init.headers ?? {}) } });
    return { status: response.status, text: await response.text() };
  };
  const answers = [
    await api('/rest/v1/rpc/list_ads', { method: 'POST', body: JSON.stringify({ p_query: { board: 'library' } }) }),
    await api('/rest/v1/rpc/get_ad', { method: 'POST', body: JSON.stringify({ p_id: lockedId }) }),
    await api(`/rest/v1/ads?select=*&id=eq.${lockedId}`),
    await api(`/rest/v1/ads?select=video_path&id=eq.${lockedId}`),
    await api('/rest/v1/rpc/get_ad_original_download', { method: 'POST', body: JSON.stringify({ p_id: lockedId }) }),
    await api('/storage/v1/object/list/ad-videos', { method: 'POST', body: JSON.stringify({ prefix: '' }) }),
  ];
  for (const answer of answers) expect(answer.text).not.toMatch(/ad-videos\/|video_url|video_path"\s*:\s*"/);
  expect(answers[0]!.status).toBe(200);
  expect(answers[0]!.text).toContain(lockedId);
  expect(answers[3]!.status).toBeGreaterThanOrEqual(400);
  const { rows } = await stack.db.query<{ video_path: string }>('select video_path from public.ads where id = $1', [lockedId]);
  const path = rows[0]!.video_path;
  for (const [url, init] of [
    [`/storage/v1/object/authenticated/ad-videos/${path}`, {}],
    [`/storage/v1/object/public/ad-videos/${path}`, {}],
    [`/storage/v1/object/sign/ad-videos/${path}`, { method: 'POST', body: JSON.stringify({ expiresIn: 60 }) }],
  ] as const) {
    const answer = await api(url, init);
    expect(answer.status, url).toBeGreaterThanOrEqual(400);
    expect(answer.text, url).not.toMatch(/signedURL"\s*:\s*"/);
  }
});

describe('on a phone', () => {
  // Touch, no hover, a narrow screen (one column of cards), as the browser's own phone emulation gives them.
  journey.override({ contextOptions: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true } });

  journey('on a touch screen a subscriber\'s video card plays while it is mostly in view, one card at a time', async ({ page, stack, library }) => {
    await signIn(page, stack, SUBSCRIBER);
    await page.goto('/');
    expect(await page.evaluate(() => window.matchMedia('(hover: hover) and (pointer: fine)').matches)).toBe(false);
    const playingCards = () => page.locator('[data-testid="card-video-box"][data-playing="true"]').count();
    for (const id of library.videoAdIds) {
      const card = page.locator(`[data-testid="ad-card"][data-ad-id="${id}"]`);
      await card.waitFor({ state: 'attached' });
      await card.evaluate((element) => element.scrollIntoView({ block: 'center' }));
      await expect.poll(() => isPlaying(page, `[data-ad-id="${id}"] [data-testid="card-video"]`).catch(() => false), POLL).toBe(true);
      expect(await page.locator('[data-testid="card-video"]').count()).toBe(1);
      expect(await playingCards()).toBe(1);
    }
  });
});
