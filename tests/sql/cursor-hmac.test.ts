import { createHmac, randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { describeOnEngines } from '../support/engines.ts';

/**
 * private.hmac_sha256 signs list cursors, and private.signed_object_url the
 * image links, with the core sha256() function. It must be HMAC-SHA-256 exactly: RFC 4231's vectors on both engines, the same
 * bytes as pgcrypto's hmac() on PostgreSQL and as Node's HMAC everywhere.
 */
const hex = (text: string) => Buffer.from(text, 'utf8').toString('hex');

/** RFC 4231 section 4: test cases 1, 2, 3, 4, 6 and 7 (5 truncates the output), keys and data in hex. */
const RFC_4231 = [
  { name: 'case 1', key: '0b'.repeat(20), data: hex('Hi There'), mac: 'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7' },
  { name: 'case 2', key: hex('Jefe'), data: hex('what do ya want for nothing?'), mac: '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843' },
  { name: 'case 3', key: 'aa'.repeat(20), data: 'dd'.repeat(50), mac: '773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe' },
  {
    name: 'case 4',
    key: '0102030405060708090a0b0c0d0e0f10111213141516171819',
    data: 'cd'.repeat(50),
    mac: '82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b',
  },
  {
    name: 'case 6 (key longer than the block)',
    key: 'aa'.repeat(131),
    data: hex('Test Using Larger Than Block-Size Key - Hash Key First'),
    mac: '60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54',
  },
  {
    name: 'case 7 (long key and data)',
    key: 'aa'.repeat(131),
    data: hex('This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.'),
    mac: '9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2',
  },
];

describeOnEngines('cursor and image link HMAC on core sha256()', (ctx) => {
  const macOf = async (keyHex: string, dataHex: string) =>
    (await ctx.db.query<{ mac: string }>(
      `select encode(private.hmac_sha256(decode($1, 'hex'), decode($2, 'hex')), 'hex') as mac`, [dataHex, keyHex],
    )).rows[0]!.mac;

  for (const vector of RFC_4231) {
    it(`gives RFC 4231 test ${vector.name}`, async () => {
      expect(await macOf(vector.key, vector.data)).toBe(vector.mac);
    });
  }

  it("equals Node's HMAC-SHA-256 for keys around the 64-byte block and empty input", async () => {
    for (const keyLength of [0, 1, 32, 63, 64, 65, 200]) {
      const key = randomBytes(keyLength);
      for (const data of [Buffer.alloc(0), randomBytes(17), randomBytes(300)]) {
        const expected = createHmac('sha256', key).update(data).digest('hex');
        expect(await macOf(key.toString('hex'), data.toString('hex')), `key of ${keyLength} bytes, ${data.length} bytes of data`).toBe(expected);
      }
    }
  });

  it('signs cursors with the stored secret, as pgcrypto did: payload, then 18 bytes of the HMAC, base64url', async () => {
    const { rows } = await ctx.db.query<{ cursor: string; secret: string }>(
      `select private.sign_cursor('{"i": "x", "q": "key", "t": "2026-01-01T00:00:00.000000Z"}'::jsonb) as cursor,
              (select value from private.settings where key = 'cursor_secret') as secret`,
    );
    const { cursor, secret } = rows[0]!;
    const [payload, signature] = cursor.split('.');
    const payloadText = Buffer.from(payload!, 'base64url').toString('utf8');
    expect(JSON.parse(payloadText)).toEqual({ i: 'x', q: 'key', t: '2026-01-01T00:00:00.000000Z' });
    const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(payloadText, 'utf8').digest().subarray(0, 18);
    expect(signature).toBe(expected.toString('base64url'));
  });

  it('signs image links with the stored secret on core sha256(): a Storage token that Node verifies', async () => {
    const { rows } = await ctx.db.query<{ url: string; secret: string }>(
      `select private.signed_object_url('ad-images', 'ads/x/display-480.webp', 1800000000, 1800086400, private.image_link_key()) as url,
              (select value from private.settings where key = 'image_link_secret') as secret`,
    );
    const { url, secret } = rows[0]!;
    const [path, query] = url.split('?token=');
    expect(path).toBe('object/sign/ad-images/ads/x/display-480.webp');
    const [header, payload, signature] = query!.split('.');
    expect(JSON.parse(Buffer.from(header!, 'base64url').toString('utf8'))).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8'))).toEqual({ url: 'ad-images/ads/x/display-480.webp', iat: 1800000000, exp: 1800086400 });
    expect(signature).toBe(createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${header}.${payload}`).digest('base64url'));
  });

  it("signs with a secret's new pads as soon as it changes, and keeps the pads to the secret", async () => {
    const { rows: before } = await ctx.db.query<{ key: string; value: string }>(
      `select key, value from private.settings where key in ('cursor_secret', 'image_link_secret')`);
    expect(before).toHaveLength(2);
    try {
      // A secret longer than the 64-byte block is hashed first; its pads follow it too.
      await ctx.db.query(`update private.settings set value = case key when 'cursor_secret' then 'a-rotated-cursor-secret'
                            else repeat('a-rotated-link-secret-', 4) end where key in ('cursor_secret', 'image_link_secret')`);
      const [signed] = (await ctx.db.query<{ cursor: string; url: string }>(
        `select private.sign_cursor('{"q": "key"}'::jsonb) as cursor,
                private.signed_object_url('ad-images', 'ads/x/display-480.webp', 1800000000, 1800086400, private.image_link_key()) as url`,
      )).rows;
      const [payload, signature] = signed!.cursor.split('.');
      expect(signature).toBe(createHmac('sha256', 'a-rotated-cursor-secret').update(Buffer.from(payload!, 'base64url')).digest().subarray(0, 18).toString('base64url'));
      const [header, claims, linkSignature] = signed!.url.split('?token=')[1]!.split('.');
      expect(linkSignature).toBe(createHmac('sha256', 'a-rotated-link-secret-'.repeat(4)).update(`${header}.${claims}`).digest('base64url'));
      // Pads written apart from their secret are written again from it.
      await ctx.db.query(`update private.settings set hmac_pads = decode('00', 'hex') where key = 'cursor_secret'`);
      const { rows } = await ctx.db.query<{ kept: boolean }>(
        `select bool_and(hmac_pads = private.hmac_pads(convert_to(value, 'UTF8'))) as kept from private.settings`);
      expect(rows[0]!.kept).toBe(true);
    } finally {
      for (const row of before) await ctx.db.query(`update private.settings set value = $2 where key = $1`, [row.key, row.value]);
    }
  });

  const PGCRYPTO_FREE = {
    'the cursor functions': ['hmac_sha256', 'read_cursor', 'sign_cursor'],
    'the image link functions': ['hmac_pads', 'image_link_key', 'signed_object_url'],
  };
  for (const [what, functions] of Object.entries(PGCRYPTO_FREE)) {
    it(`does not use pgcrypto in ${what}`, async () => {
      const { rows } = await ctx.db.query<{ fn: string; body: string }>(
        `select p.proname as fn, p.prosrc as body from pg_proc p
          where p.pronamespace = 'private'::regnamespace and p.proname = any ($1::text[])`,
        [functions],
      );
      expect(rows.map((row) => row.fn).sort()).toEqual(functions);
      for (const row of rows) expect(row.body, row.fn).not.toMatch(/extensions\.|hmac\(/);
    });
  }

  if (ctx.engine === 'postgres') {
    it("equals pgcrypto's hmac(data, key, 'sha256') on PostgreSQL", async () => {
      const { rows } = await ctx.db.query<{ same: boolean; n: number }>(
        `select bool_and(private.hmac_sha256(d, k) = extensions.hmac(d, k, 'sha256')) as same, count(*)::int as n
           from generate_series(0, 150, 5) as l,
                lateral (select extensions.gen_random_bytes(greatest(l, 1)) as k, convert_to(repeat(md5(l::text), l % 7), 'UTF8') as d) as x`,
      );
      expect(rows[0]).toEqual({ same: true, n: 31 });
    });
  }
});
