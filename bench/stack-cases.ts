import { randomUUID } from 'node:crypto';
import { signJwt } from '../local/auth/jwt.ts';
import type { TestUser } from '../tests/support/factories.ts';
import { listAdsQuery } from './cases.ts';
import type { LoadBody } from './load.ts';
import { SEARCHES, type BenchData } from './seed.ts';

/**
 * What `npm run bench:stack` sends: the requests the SPA makes for each thing a
 * user does, as each kind of caller, and the yardstick's requests for the same
 * listing pages.
 */
export type StackCaller = 'anon' | 'free' | 'subscriber';

/**
 * The yardstick's pages: the listing pages, and one row of a small table (what the trivial read asks). Every
 * other case is compared with its first page.
 */
export type Listing = 'first page' | 'deep page' | 'brand' | 'tag' | 'search' | 'one row';

export type CaseKind = 'listing' | 'ad page' | 'save' | 'trivial read';

export interface HttpCase {
  name: string;
  kind: CaseKind;
  caller: StackCaller | 'yardstick';
  /** The yardstick's page this case is read against. */
  listing: Listing;
  method: 'GET' | 'POST';
  /** Path and query, from the server's root. */
  path: string;
  body?: LoadBody;
  /** Headers beyond the caller's (the API key, the token and the body's type). */
  headers?: Record<string, string>;
}

/** How many pages in the deep page is: the cursor is the fourth page's next_cursor. */
export const DEEP_PAGE = 5;

/** The filters of each listing page; the deep page's cursor is each server's own. */
interface ListingQuery {
  brandId?: string;
  tagId?: string;
  search?: string;
  cursor?: string;
}

function listingQueries(data: BenchData, deepCursor: string): [Listing, ListingQuery][] {
  return [
    ['first page', {}],
    ['deep page', { cursor: deepCursor }],
    ['brand', { brandId: data.brand.id }],
    ['tag', { tagId: data.tag.id }],
    ['search', { search: SEARCHES.brandFragment }],
  ];
}

/** list_ads' one argument as the SPA's library sends it (src/features/library/api/list-library-ads.ts): the board and the fields set. */
export function listAdsBody(query: ListingQuery): string {
  return JSON.stringify({
    p_query: listAdsQuery({ brandIds: query.brandId ? [query.brandId] : undefined, tagIds: query.tagId ? [query.tagId] : undefined, search: query.search, cursor: query.cursor }),
  });
}

export function yardstickPath(query: ListingQuery): string {
  const params = new URLSearchParams();
  if (query.brandId) params.set('brand', query.brandId);
  if (query.tagId) params.set('tag', query.tagId);
  if (query.search) params.set('search', query.search);
  if (query.cursor) params.set('cursor', query.cursor);
  const text = params.toString();
  return text ? `/ads?${text}` : '/ads';
}

const listingName = (listing: Listing) =>
  listing === 'deep page' ? `library, page ${DEEP_PAGE}` : listing === 'first page' ? 'library, first page'
    : listing === 'search' ? `library, search "${SEARCHES.brandFragment}"` : `library, by ${listing}`;

/**
 * Every case on the stack. Requests that name an ad walk through the seeded
 * sample (each connection its own stride); saving toggles one ad per
 * connection on the caller's bench board, added then removed, so the board
 * never holds more than one ad per connection (far under the 5,000 cap).
 */
export function stackCases(data: BenchData, deepCursor: string, boards: Record<'free' | 'subscriber', string>): HttpCase[] {
  const callers: StackCaller[] = ['anon', 'free', 'subscriber'];
  const ads = data.sampleAdIds;
  const adOf = (connection: number, sent: number) => ads[(connection * 7 + sent) % ads.length]!;
  const cases: HttpCase[] = [];
  for (const [listing, query] of listingQueries(data, deepCursor)) {
    for (const caller of callers) {
      cases.push({ name: `list_ads ${listingName(listing)}`, kind: 'listing', caller, listing, method: 'POST', path: '/rest/v1/rpc/list_ads', body: listAdsBody(query) });
    }
  }
  // Every request a filter no one asked before (ads since a different minute of
  // the last year): no shared answer can serve it, so this is list_ads's own speed.
  const sinceOf = (connection: number, sent: number) => new Date(Date.UTC(2026, 0, 1) + ((connection * 7_919 + sent * 104_729) % 525_600) * 60_000).toISOString();
  cases.push({
    name: 'list_ads library, since a new date each request (unshared)', kind: 'listing', caller: 'subscriber', listing: 'first page', method: 'POST', path: '/rest/v1/rpc/list_ads',
    body: (connection, sent) => JSON.stringify({ p_query: listAdsQuery({ since: sinceOf(connection, sent) }) }),
  });
  // As a browser asks for it, Brotli accepted: the shared answer goes out compressed from the cache's own copy.
  cases.push({
    name: 'list_ads library, first page, Brotli accepted', kind: 'listing', caller: 'subscriber', listing: 'first page', method: 'POST',
    path: '/rest/v1/rpc/list_ads', body: listAdsBody({}), headers: { 'accept-encoding': 'br, gzip' },
  });
  for (const caller of callers) {
    cases.push({
      name: 'get_ad', kind: 'ad page', caller, listing: 'first page', method: 'POST', path: '/rest/v1/rpc/get_ad',
      body: (connection, sent) => JSON.stringify({ p_id: adOf(connection, sent) }),
    });
  }
  // Only subscribers walk from ad to ad (DESIGN.md): the others get 403 by design.
  cases.push({
    name: 'get_ad_neighbours', kind: 'ad page', caller: 'subscriber', listing: 'first page', method: 'POST', path: '/rest/v1/rpc/get_ad_neighbours',
    body: (connection, sent) => JSON.stringify({ p_id: adOf(connection, sent) }),
  });
  for (const caller of ['free', 'subscriber'] as const) {
    const board = boards[caller];
    cases.push({
      name: 'save_ad_boards, add then remove', kind: 'save', caller, listing: 'first page', method: 'POST', path: '/rest/v1/rpc/save_ad_boards',
      body: (connection, sent) => JSON.stringify({
        p_ad_id: ads[connection % ads.length],
        p_add: sent % 2 === 0 ? [board] : [],
        p_remove: sent % 2 === 0 ? [] : [board],
      }),
    });
  }
  cases.push({ name: 'brands, one row', kind: 'trivial read', caller: 'subscriber', listing: 'one row', method: 'GET', path: '/rest/v1/brands?select=id,name&limit=1' });
  return cases;
}

export function yardstickCases(data: BenchData, deepCursor: string): HttpCase[] {
  return [
    ...listingQueries(data, deepCursor).map(([listing, query]): HttpCase => ({
      name: `keyset route ${listingName(listing)}`, kind: 'listing', caller: 'yardstick', listing, method: 'GET', path: yardstickPath(query),
    })),
    { name: 'hand-written route, brands, one row', kind: 'trivial read', caller: 'yardstick', listing: 'one row', method: 'GET', path: '/brands' },
  ];
}

/**
 * An access token for a seeded user with the claims the local auth puts in a
 * session's token (local/auth/sessions.ts), signed with the stack's secret:
 * the stack verifies it and hands these claims to PostgreSQL as it would a
 * signed-in browser's.
 */
export function accessToken(user: TestUser, secret: string, issuer: string, expiresInSeconds = 3600): Promise<string> {
  const iat = Math.floor(Date.now() / 1000);
  return signJwt({
    aud: 'authenticated',
    exp: iat + expiresInSeconds,
    iat,
    iss: issuer,
    sub: user.id,
    email: user.email,
    phone: '',
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: {},
    role: 'authenticated',
    aal: 'aal1',
    amr: [{ method: 'password', timestamp: iat }],
    session_id: randomUUID(),
    is_anonymous: false,
  }, secret);
}
