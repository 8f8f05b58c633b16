/**
 * The yardstick of `npm run bench:stack`: a hand-written keyset route over the
 * same data, run as a process of its own beside the stack (on the same
 * PostgreSQL database, or on a copy of the same seeded PGlite folder), so that
 * each listing figure of the stack can be read as a share of what a plain route
 * does on this machine at about the same moment. It lives in bench/ and never
 * in the product.
 *
 * GET /brands answers the trivial read (`brands?select=id,name&limit=1`) the same way: the JWT verified, one
 * statement that builds the JSON array of one brand, sent as it is; the floor of a signed-in read on this machine.
 *
 * What it does, per request (GET /ads?brand=&tag=&search=&cursor=):
 * - verifies the bearer JWT with the stack's secret (HS256, jose, every request;
 *   no cache of verified tokens);
 * - runs ONE statement on the same pool the stack would open (node-postgres, 20
 *   connections; on PGlite the same engine thread as the stack): keyset
 *   pagination over public.ads in list_ads's order (created_at desc, id desc), 60
 *   rows and one more to know there is a next page, the library's board
 *   condition (not is_black_friday); a brand or a tag walks its ordered index
 *   range; a search is the union of the ordered ranges of the brands,
 *   categories, types and tags whose name matches;
 * - builds the answer in SQL the way list_ads does for a caller who sees every
 *   ad clear (as text, like private.ads_json_text): each ad is its stored
 *   card's text after is_clear and the two display links, signed with the
 *   image-link secret by the same SQL (private.image_link_token and
 *   private.signed_image_link, inlined, each token written once), so
 *   the answer is what list_ads gives a subscriber, ad for ad; and sends that
 *   text as it is.
 *
 * What it does not do: no role switch, claims or row-level security (it connects
 * as the database owner), no statement timeout, no paywall (no access check, no
 * free sample, no clear-first order, no blurred previews), no signed cursor (its
 * cursor is the last row's time and id in the clear; list_ads HMACs its own), no
 * search of the ads' own words (list_ads also reads each ad's headline, texts and
 * image words), no broad-search plan (a one-letter search would walk every
 * matching range), no other filters (category, type, since, several tags), no
 * compression, no schema cache, no request parsing beyond the query string. The
 * statement is planned on every call (an unnamed statement), as the stack's are.
 */
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { InvalidJwtError, verifyJwt } from '../local/auth/jwt.ts';
import { readConfig } from '../local/config.ts';
import type { Database } from '../local/db/database.ts';
import { openLocalDatabase } from '../local/db/open-local-database.ts';

const PAGE_SIZE = 60;

/** The rows of one page and one more, as (id, created_at, card, display paths), in list_ads's order. */
function rangeSql(query: URLSearchParams, values: unknown[]): string {
  const add = (value: unknown) => `$${values.push(value)}`;
  const cursor = query.get('cursor');
  let after: { at: string; id: string } | null = null;
  if (cursor) {
    const [at, id] = cursor.split('_');
    if (!at || !id) throw new BadRequest('cursor must be <time>_<id>');
    after = { at: add(at), id: add(id) };
  }
  const before = (time: string, id: string) => (after ? ` and (${time}, ${id}) < (${after.at}::timestamptz, ${after.id}::uuid)` : '');
  const columns = 'a.id, a.created_at, a.card, a.display_480_path, a.display_960_path';
  const order = `order by a.created_at desc, a.id desc limit ${PAGE_SIZE + 1}`;
  const brand = query.get('brand');
  const tag = query.get('tag');
  const search = query.get('search')?.trim();
  if (brand) {
    return `select ${columns} from public.ads a where a.brand_id = ${add(brand)}::uuid and not a.is_black_friday`
      + `${before('a.created_at', 'a.id')} ${order}`;
  }
  if (tag) {
    return `select ${columns} from public.ad_tags t join public.ads a on a.id = t.ad_id`
      + ` where t.tag_id = ${add(tag)}::uuid and not a.is_black_friday${before('t.ad_created_at', 't.ad_id')}`
      + ` order by t.ad_created_at desc, t.ad_id desc limit ${PAGE_SIZE + 1}`;
  }
  if (search) {
    const pattern = add(`%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    const adsOf = (column: string, table: string) =>
      `select x.id, x.created_at from public.${table} d cross join lateral (select a.id, a.created_at from public.ads a`
      + ` where a.${column} = d.id and not a.is_black_friday${before('a.created_at', 'a.id')} ${order}) x where d.name ilike ${pattern}`;
    return `select ${columns} from (`
      + `${adsOf('brand_id', 'brands')} union ${adsOf('category_id', 'categories')} union ${adsOf('type_id', 'types')} union `
      + `select x.id, x.created_at from public.tags d cross join lateral (select t.ad_id as id, t.ad_created_at as created_at`
      + ` from public.ad_tags t join public.ads a on a.id = t.ad_id where t.tag_id = d.id and not a.is_black_friday`
      + `${before('t.ad_created_at', 't.ad_id')} order by t.ad_created_at desc, t.ad_id desc limit ${PAGE_SIZE + 1}) x`
      + ` where d.name ilike ${pattern} and d.system_key is distinct from 'black_friday'`
      + `) u join public.ads a on a.id = u.id ${order}`;
  }
  return `select ${columns} from public.ads a where not a.is_black_friday${before('a.created_at', 'a.id')} ${order}`;
}

/** The whole answer as text: {"ads": [...60 cards with their links], "next_cursor"}. */
export function pageSql(query: URLSearchParams, linkKey: string): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const range = rangeSql(query, values);
  const key = `$${values.push(linkKey)}`;
  const token = (path: string) => `private.image_link_token('ad-images', r.${path}, w.iat, w.iat + 86400)`;
  const link = (path: string, column: string) => `private.signed_image_link('ad-images', r.${path}, t.${column}, decode(${key}::text, 'hex'))`;
  // One aggregate writes the whole answer, as private.ads_json_text does: the opening text is its first piece, each
  // ad's delimiter comes with the ad, the cursor and the closing text are its last piece.
  const text = `with r as (select p.*, row_number() over (order by p.created_at desc, p.id desc) as n from (${range}) p),
         w as (select private.image_link_window_start(now()) as iat)
    select string_agg(x.piece, x.delimiter order by x.ord)::json::text as body
    from (select 0::bigint as ord, '{"ads" : [' as piece, '' as delimiter
          union all
          select r.n, '{"is_clear": true, "preview_url": null, "display_480_url": "' || ${link('display_480_path', 'd480')}
                        || '", "display_960_url": "' || ${link('display_960_path', 'd960')} || '", ' || right(r.card::text, -1),
                 case when r.n = 1 then '' else ', ' end
            from r cross join w
            cross join lateral (select ${token('display_480_path')} as d480, ${token('display_960_path')} as d960 offset 0) t
           where r.n <= ${PAGE_SIZE}
          union all
          select 9223372036854775807, '], "next_cursor" : ' || coalesce((
                   select '"' || private.iso_utc(r.created_at) || '_' || r.id || '"' from r
                    where r.n = ${PAGE_SIZE} and exists (select 1 from r where r.n > ${PAGE_SIZE})), 'null') || '}', '') x`;
  return { text, values };
}

class BadRequest extends Error {}

/** GET /brands: the trivial read's answer (one brand's id and name as a JSON array), built in SQL. */
const ONE_BRAND_SQL = `select coalesce(json_agg(row_to_json(b)), '[]')::text as body from (select id, name from public.brands limit 1) b`;

function send(response: http.ServerResponse, status: number, body: string): void {
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  response.end(body);
}

async function answer(db: Database, secret: string, linkKey: string, request: http.IncomingMessage, response: http.ServerResponse) {
  const token = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
  if (!token) return send(response, 401, '{"message":"no bearer token"}');
  await verifyJwt(token, secret);
  const url = new URL(request.url ?? '/', 'http://yardstick');
  if (request.method === 'GET' && url.pathname === '/brands') {
    const { rows } = await db.query<{ body: string }>(ONE_BRAND_SQL);
    return send(response, 200, rows[0]!.body);
  }
  if (request.method !== 'GET' || url.pathname !== '/ads') return send(response, 404, '{"message":"GET /ads or /brands only"}');
  const { text, values } = pageSql(url.searchParams, linkKey);
  const { rows } = await db.query<{ body: string }>(text, values);
  send(response, 200, rows[0]!.body);
}

async function main(): Promise<void> {
  const config = readConfig();
  const db = await openLocalDatabase(config);
  // Read once: a hand-written route keeps its signing key in memory (list_ads reads it from the table every call).
  // The key as the HMAC pads the links are signed with (private.image_link_key()), hex.
  const { rows } = await db.query<{ value: string | null }>(`select encode(private.image_link_key(), 'hex') as value`);
  const linkKey = rows[0]?.value;
  if (!linkKey) throw new Error('private.settings has no image_link_secret: start the stack on this database once first');

  const server = http.createServer((request, response) => {
    request.resume();
    answer(db, config.JWT_SECRET, linkKey, request, response).catch((error: unknown) => {
      const status = error instanceof InvalidJwtError ? 401 : error instanceof BadRequest ? 400 : 500;
      send(response, status, JSON.stringify({ message: (error as Error).message }));
    });
  });
  server.listen(config.PORT, '127.0.0.1', () => {
    const { port } = server.address() as { port: number };
    console.log(`Yardstick is running at http://127.0.0.1:${port}`);
  });
  process.once('SIGTERM', () => {
    server.close();
    server.closeAllConnections();
    db.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`Stopping failed: ${(error as Error).message}`);
        process.exit(1);
      },
    );
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
