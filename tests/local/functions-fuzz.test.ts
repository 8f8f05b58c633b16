import { createHmac } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../local/db/database.ts';
import { isGeneratedImageName } from '../../local/storage/upload-checks.ts';
import { startLocalStack, type LocalStack } from '../../local/stack.ts';
import { LOCAL_STRIPE_PRICES, LOCAL_STRIPE_WEBHOOK_SECRET } from '../../supabase/functions/_shared/local-stripe-defaults.ts';
import { openTestDatabase } from '../support/engines.ts';
import { grantAdmin, newAd, newBrand, newCategory, newUser, type TestUser } from '../support/factories.ts';
import { userToken } from '../support/local-config.ts';

/**
 * Arbitrary input at the edges the browser and Stripe reach: the JSON bodies
 * and headers of every edge function, and the names and bytes of uploads.
 * Whatever arrives, the answer is never a 5xx; a refusal is a JSON error
 * with a message, and it writes nothing: no billing or tag rows, no object
 * row, no stored file.
 */

const FUNCTIONS = ['create-checkout', 'preview-coupon', 'check-subscription', 'cancel-subscription', 'customer-portal', 'stripe-webhook', 'tag-yesterdays-ads'] as const;
type Caller = 'no header' | 'anonymous' | 'free' | 'admin' | 'forged';

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

/** A request exactly as given: raw path, only the headers listed, any bytes. Node's fetch would normalise all three. */
function rawRequest(url: string, options: { method: string; path: string; headers: Record<string, string>; body?: Buffer }) {
  const target = new URL(url);
  return new Promise<Answer>((resolve, reject) => {
    const request = http.request(
      // A connection per request: a refusal sent before a large body is read may close it, which is not the next request's fault.
      { host: '127.0.0.1', port: target.port, path: options.path, method: options.method, headers: options.headers, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, contentType: response.headers['content-type'] ?? '', text: Buffer.concat(chunks).toString() }),
        );
        response.on('error', reject);
      },
    );
    request.setTimeout(30_000, () => request.destroy(new Error('no answer within 30 s')));
    request.on('error', reject);
    request.end(options.body);
  });
}

/** A refusal in one of the stack's two error shapes: functions `{ error: { code, message } }`, storage `{ statusCode, error, message }`. */
function errorMessageOf(answer: Answer): string | null {
  if (!/^application\/json/.test(answer.contentType)) return null;
  try {
    const body = JSON.parse(answer.text) as { error?: { code?: unknown; message?: unknown } | unknown; message?: unknown };
    if (body.error && typeof body.error === 'object') {
      const { code, message } = body.error as { code?: unknown; message?: unknown };
      return typeof code === 'string' && typeof message === 'string' && message.trim() !== '' ? message : null;
    }
    return typeof body.error === 'string' && typeof body.message === 'string' && body.message.trim() !== '' ? body.message : null;
  } catch {
    return null;
  }
}

const describeAnswer = (answer: Answer) => `${answer.status} ${answer.contentType} ${answer.text.slice(0, 300)}`;

/** A body that prints as its first 120 characters in a counterexample, not as every byte. */
function bodyOf(bytes: Buffer | string): Buffer {
  const body = Buffer.from(bytes);
  const shown = JSON.stringify(body.toString('utf8', 0, 120));
  return Object.assign(body, { [fc.toStringMethod]: () => (body.length > 120 ? `body(${shown} … ${body.length} bytes)` : `body(${shown})`) });
}

/** Large strings are built from a short seed, so shrinking stays fast. */
const hugeString = fc.tuple(fc.string({ minLength: 1, maxLength: 4 }), fc.constantFrom(5_000, 70_000, 1_100_000)).map(([seed, n]) => seed.repeat(Math.ceil(n / seed.length)));
const oddString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom('', ' ', '\u0000', '../../etc/passwd', '<script>alert(1)</script>', "' or 1=1 --", '%00', '\u202e', '😀'),
  fc.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
  hugeString,
);
const oddValue = fc.oneof(
  oddString,
  fc.constantFrom(...Object.values(LOCAL_STRIPE_PRICES), 7, 0, -1, 1e308, true, false, null, 'http://local.test', 'javascript:alert(1)', 'https://evil.test/x'),
  fc.jsonValue({ maxDepth: 2 }),
);
const knownKey = fc.constantFrom('priceId', 'couponCode', 'baseUrl', 'trialDays', 'immediate', 'day', 'type', 'id', 'data', '__proto__', 'constructor');

/** Mostly a valid value, else an odd one: so that runs get past validation to the writes as well. */
const mostly = <T>(valid: fc.Arbitrary<T>, odd: fc.Arbitrary<unknown>) => fc.oneof({ arbitrary: valid, weight: 3 }, { arbitrary: odd, weight: 1 });

/** The functions' own fields, each often absent, often valid (the real prices, the site's origin, a real day), else odd. */
const fieldsArbitrary = (siteUrl: string) =>
  fc.record(
    {
      priceId: mostly(fc.constantFrom(...Object.values(LOCAL_STRIPE_PRICES)), oddValue),
      couponCode: mostly(fc.constantFrom('', ' '), fc.oneof(fc.constantFrom('WELCOME10', 'NOPE'), oddString)),
      baseUrl: mostly(fc.constant(siteUrl), fc.oneof(fc.constantFrom('http://local.test', 'https://evil.test', 'ftp://local.test'), oddValue)),
      trialDays: mostly(fc.constant(7), fc.oneof(fc.constantFrom(8, '7'), oddValue)),
      immediate: mostly(fc.boolean(), oddValue),
      day: mostly(fc.constantFrom('2026-03-01', '2026-03-02', '2000-01-01'), fc.oneof(fc.constantFrom('2026-02-30', '2026-13-01', '0000-01-01', '9999-12-31'), oddString)),
    },
    { requiredKeys: [] },
  );

/** Bodies: JSON objects with the functions' own keys and odd values, any JSON, JSON cut short, and bytes that are not UTF-8. */
const bodyArbitrary = (siteUrl: string) => fc.oneof(
  { arbitrary: fieldsArbitrary(siteUrl).map((value) => bodyOf(JSON.stringify(value))), weight: 5 },
  fc.dictionary(knownKey, oddValue, { maxKeys: 4 }).map((value) => bodyOf(JSON.stringify(value))),
  fc.jsonValue({ maxDepth: 3 }).map((value) => bodyOf(JSON.stringify(value) ?? 'null')),
  fc.tuple(fc.jsonValue({ maxDepth: 3 }), fc.nat()).map(([value, cut]) => {
    const text = JSON.stringify(value) ?? 'null';
    return bodyOf(text.slice(0, cut % Math.max(text.length, 1)));
  }),
  fc.constantFrom('', '{', '{"priceId":', '[]', 'null', '"x"', '{"day":"2026-02-30"}', 'not json').map((text) => bodyOf(text)),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => bodyOf(Buffer.from(bytes))),
);
const contentTypeArbitrary = fc.constantFrom(
  undefined,
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'image/png',
  '',
);

/** What the webhook finds in Stripe-Signature: none, nonsense, a wrong signature, an old one, or a valid one over the body. */
const signatureArbitrary = fc.constantFrom('none', 'garbage', 'wrong', 'old', 'valid') ;
function stripeSignature(kind: 'none' | 'garbage' | 'wrong' | 'old' | 'valid', body: Buffer): string | undefined {
  const now = Math.floor(Date.now() / 1000);
  const sign = (timestamp: number, secret: string) =>
    `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex')}`;
  switch (kind) {
    case 'none':
      return undefined;
    case 'garbage':
      return 't=abc,v1=,,,';
    case 'wrong':
      return sign(now, 'whsec_not_the_secret');
    case 'old':
      return sign(now - 3600, LOCAL_STRIPE_WEBHOOK_SECRET);
    case 'valid':
      return sign(now, LOCAL_STRIPE_WEBHOOK_SECRET);
  }
}

/** The rows a refused call must leave exactly as they were. */
async function billingAndTagState(db: Database): Promise<Record<string, string>> {
  const { rows } = await db.query<{ name: string; digest: string }>(
    `select 'subscriptions' as name, count(*) || ':' || coalesce(md5(string_agg(s::text, '|' order by s.id)), '') as digest from public.subscriptions s
     union all
     select 'billing_customers', count(*) || ':' || coalesce(md5(string_agg(c::text, '|' order by c.user_id)), '') from public.billing_customers c
     union all
     select 'processed_webhook_events', count(*) || ':' || coalesce(md5(string_agg(e::text, '|' order by e.event_id)), '') from public.processed_webhook_events e
     union all
     select 'ad_tags', count(*) || ':' || coalesce(md5(string_agg(t::text, '|' order by t.ad_id, t.tag_id)), '') from public.ad_tags t
     union all
     select 'ads', count(*) || ':' || coalesce(md5(string_agg(a.id || a.is_black_friday::text, '|' order by a.id)), '') from public.ads a`,
  );
  return Object.fromEntries(rows.map((row) => [row.name, row.digest]));
}

describe('fuzzing the edges of the local stack [pglite]', () => {
  let db: Database;
  let stack: LocalStack;
  let tokens: Record<Exclude<Caller, 'no header'>, string>;
  let admin: TestUser;
  let dataDir: string | undefined;

  beforeAll(async () => {
    db = await openTestDatabase('pglite');
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'obyect-fuzz-'));
    stack = await startLocalStack({ db, port: 0, env: { DATA_DIR: dataDir } });
    admin = await newUser(db);
    await grantAdmin(db, admin);
    const free = await newUser(db);
    const brand = await newBrand(db);
    const category = await newCategory(db);
    // Ads on a few days, so that a valid day given to tag-yesterdays-ads has something to tag.
    for (const day of ['2026-03-01', '2026-03-02', '2000-01-01']) await newAd(db, { brandId: brand.id, categoryId: category.id, createdAt: `${day}T12:00:00Z` });
    const forged = await userToken({ ...stack.config, JWT_SECRET: 'a-different-secret-of-at-least-32-characters' }, admin);
    tokens = { anonymous: stack.config.anonKey, free: await userToken(stack.config, free), admin: await userToken(stack.config, admin), forged };
  });

  afterAll(async () => {
    await stack?.close();
    await db?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('answers every function any body and headers, from anyone, without a 5xx; a refusal is a JSON error and writes nothing', async () => {
    const callers: Caller[] = ['no header', 'anonymous', 'free', 'admin', 'forged'];
    const tally = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...FUNCTIONS),
        fc.constantFrom('POST', 'POST', 'POST', 'POST', 'POST', 'GET', 'PUT'),
        fc.constantFrom<Caller>('free', 'free', 'admin', 'admin', ...callers),
        bodyArbitrary(stack.config.siteUrl),
        contentTypeArbitrary,
        signatureArbitrary,
        async (name, method, caller, body, contentType, signature) => {
          const headers: Record<string, string> = {};
          if (caller !== 'no header') {
            headers.apikey = stack.config.anonKey;
            // A new person each time, so that a run never depends on what an earlier one wrote and a failure shrinks.
            const token = caller === 'free' ? await userToken(stack.config, await newUser(db)) : tokens[caller];
            headers.authorization = `Bearer ${token}`;
          }
          if (contentType !== undefined) headers['content-type'] = contentType;
          const stripeSigned = name === 'stripe-webhook' ? stripeSignature(signature, body) : undefined;
          if (stripeSigned) headers['stripe-signature'] = stripeSigned;
          const sendsBody = method !== 'GET';
          if (sendsBody) headers['content-length'] = String(body.length);

          const before = await billingAndTagState(db);
          const answer = await rawRequest(stack.url, { method, path: `/functions/v1/${name}`, headers, body: sendsBody ? body : undefined });
          const what = `${method} ${name} as ${caller}: ${describeAnswer(answer)}`;
          const outcome = `${name} ${answer.status}`;
          tally.set(outcome, (tally.get(outcome) ?? 0) + 1);
          expect(answer.status < 500, what).toBe(true);
          if (answer.status >= 400) {
            expect(errorMessageOf(answer), what).not.toBeNull();
            expect(await billingAndTagState(db), what).toEqual(before);
          }
        },
      ),
      {
        numRuns: 300,
        // Always tried first: a day of the right shape that the calendar lacks, a coupon code far longer than any
        // real one, and a correctly signed webhook body that is JSON but no event; and one valid call each of
        // create-checkout and tag-yesterdays-ads, so that reaching past validation never rests on chance (300 random
        // runs sometimes drew no valid checkout).
        examples: [
          ['create-checkout', 'POST', 'free', bodyOf(JSON.stringify({ priceId: LOCAL_STRIPE_PRICES.monthly })), 'application/json', 'none'],
          ['tag-yesterdays-ads', 'POST', 'admin', bodyOf('{"day":"2026-03-01"}'), 'application/json', 'none'],
          ['tag-yesterdays-ads', 'POST', 'admin', bodyOf('{"day":"2026-02-30"}'), 'application/json', 'none'],
          ['stripe-webhook', 'POST', 'free', bodyOf('null'), undefined, 'valid'],
          ['create-checkout', 'POST', 'free', bodyOf(JSON.stringify({ priceId: LOCAL_STRIPE_PRICES.monthly, couponCode: 'C'.repeat(70_000) })), 'application/json', 'none'],
        ],
      },
    );
    console.log('Function answers (function status: count):', Object.fromEntries([...tally.entries()].sort()));
    // The runs reached past validation too: a checkout opened, ads tagged.
    expect(tally.get('create-checkout 200') ?? 0).toBeGreaterThan(0);
    expect(tally.get('tag-yesterdays-ads 200') ?? 0).toBeGreaterThan(0);
  });

  it('refuses upload names and bodies it cannot accept without a 5xx, leaving no object row and no file', async () => {
    const storageDir = path.join(stack.config.DATA_DIR, 'storage');
    const filesNow = async () => {
      const entries = await readdir(storageDir, { recursive: true, withFileTypes: true });
      return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name)).sort();
    };
    const objectsNow = async () =>
      (await db.query<{ key: string }>(`select bucket_id || '/' || name || '@' || version as key from storage.objects order by 1`)).rows.map((row) => row.key);

    const jpeg = await sharp({ create: { width: 12, height: 8, channels: 3, background: '#c0392b' } }).jpeg().toBuffer();
    const png = await sharp({ create: { width: 12, height: 8, channels: 3, background: '#2980b9' } }).png().toBuffer();
    const bodies: Record<string, Buffer> = {
      jpeg,
      png,
      webp: await sharp({ create: { width: 12, height: 8, channels: 3, background: '#27ae60' } }).webp().toBuffer(),
      'truncated jpeg': jpeg.subarray(0, 40),
      'jpeg magic then text': Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.from('<html>not an image</html>')]),
      'png magic only': png.subarray(0, 8),
      html: Buffer.from('<!doctype html><script>alert(document.cookie)</script>'),
      svg: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
      empty: Buffer.alloc(0),
    };
    /** Pieces of a request path as they go on the wire: dot segments raw and encoded, NUL, unicode, bad escapes, long runs. */
    const piece = fc.constantFrom(
      'a', 'ad01', 'original', 'x_y-z', '/', '//', '.', '..', '%2e', '%2E%2e', '%2e%2e%2f', '%2F', '%5C', '%00', '%01',
      '%C3%A9', '%F0%9F%98%80', '%E2%80%AE', '%ff', '%', '%20', '~', '.jpg', '.JPG', '.jpeg', '.png', '.webp', '.gif', '.svg', '.html', '.jpg.html',
      'a'.repeat(300), 'b'.repeat(1100),
    );
    const generatedName = (extensions: string[]) =>
      fc
        .tuple(fc.stringMatching(/^[a-z0-9]{1,12}$/), fc.constantFrom('original', '480', 'logo_v2'), fc.constantFrom(...extensions))
        .map(([folder, file, extension]) => `${folder}/${file}${extension}`);
    const caller = fc.constantFrom<Exclude<Caller, 'no header'>>('admin', 'admin', 'admin', 'free', 'anonymous');
    /** Uploads as the admin page makes them (a real image, its type, its extension, the right bucket), which should pass... */
    const coherentUpload = fc.constantFrom('jpeg', 'png', 'webp').chain((format) => {
      const extensions = format === 'jpeg' ? ['.jpg', '.jpeg', '.JPG'] : [`.${format}`];
      return fc.record({
        bucket: format === 'webp' ? fc.constantFrom('ad-originals', 'ad-images') : fc.constant('ad-originals'),
        // The image's own extension, after a generated name or after anything at all.
        name: fc.oneof(
          generatedName(extensions),
          fc.tuple(fc.array(piece, { minLength: 1, maxLength: 6 }), fc.constantFrom(...extensions)).map(([pieces, extension]) => pieces.join('') + extension),
        ),
        bodyName: fc.constant(format),
        contentType: fc.constant<string | undefined>(`image/${format}`),
        caller,
        upsert: fc.boolean(),
      });
    });
    /** ...and every other combination of bucket, name, bytes, declared type and caller. */
    const anyUpload = fc.record({
      bucket: fc.constantFrom('ad-originals', 'ad-images', 'no-such-bucket'),
      name: fc.oneof(
        generatedName(['.jpg', '.jpeg', '.png', '.webp', '.JPG', '.svg', '.html']),
        fc.array(piece, { minLength: 1, maxLength: 8 }).map((pieces) => pieces.join('')),
      ),
      bodyName: fc.constantFrom(...Object.keys(bodies)),
      contentType: fc.constantFrom(undefined, 'image/jpeg', 'image/png', 'image/webp', 'image/svg+xml', 'text/html', 'application/octet-stream'),
      caller,
      upsert: fc.boolean(),
    });
    const tally = new Map<string, number>();

    await fc.assert(
      fc.asyncProperty(
        fc.oneof({ arbitrary: coherentUpload, weight: 1 }, { arbitrary: anyUpload, weight: 3 }),
        async ({ bucket, name, bodyName, contentType, caller, upsert }) => {
          const body = bodies[bodyName]!;
          const headers: Record<string, string> = {
            apikey: stack.config.anonKey,
            authorization: `Bearer ${tokens[caller]}`,
            'content-length': String(body.length),
            'x-upsert': String(upsert),
          };
          if (contentType) headers['content-type'] = contentType;
          const [objectsBefore, filesBefore] = [await objectsNow(), await filesNow()];
          const answer = await rawRequest(stack.url, { method: 'POST', path: `/storage/v1/object/${bucket}/${name}`, headers, body });
          const what = `${caller} POST ${bucket}/${name} (${bodyName} as ${contentType}): ${describeAnswer(answer)}`;
          const outcome = answer.status < 300 ? String(answer.status) : `${answer.status} ${errorMessageOf(answer)?.replace(/(Invalid key: |").*$/s, '$1…').slice(0, 48)}`;
          tally.set(outcome, (tally.get(outcome) ?? 0) + 1);
          expect(answer.status < 500, what).toBe(true);
          if (answer.status >= 200 && answer.status < 300) {
            // Only an admin stores, only a real image, only under a generated name in an image bucket.
            const key = (JSON.parse(answer.text) as { Key: string }).Key;
            expect({ caller, body: ['jpeg', 'png', 'webp'].includes(bodyName), generated: isGeneratedImageName(key.slice(key.indexOf('/') + 1)), bucket: key.split('/')[0] }, what).toEqual({
              caller: 'admin',
              body: true,
              generated: true,
              bucket,
            });
            return;
          }
          expect(errorMessageOf(answer), what).not.toBeNull();
          expect(await objectsNow(), what).toEqual(objectsBefore);
          expect(await filesNow(), what).toEqual(filesBefore);
        },
      ),
      { numRuns: 300 },
    );
    console.log('Upload answers (status message: count):', Object.fromEntries([...tally.entries()].sort()));
    // The runs reached every check: some uploads were stored, some refused for their content rather than their name.
    expect(tally.get('200') ?? 0).toBeGreaterThan(0);
    expect([...tally.keys()].some((outcome) => outcome.startsWith('415'))).toBe(true);
  });
});
