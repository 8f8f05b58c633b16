import { createHmac } from 'node:crypto';
import type { Queryable } from '../../local/db/database.ts';

/** One ad as list_ads, get_ad and list_collection_ads return it. */
export interface ListedAd {
  id: string;
  brand_id: string;
  brand_name: string;
  brand_logo_path: string | null;
  category_id: string;
  category_name: string;
  type_id: string | null;
  type_name: string | null;
  tag_names: string[];
  created_at: string;
  requires_subscription: boolean;
  is_black_friday: boolean;
  is_top_picks: boolean;
  width: number;
  height: number;
  thumbhash: string;
  preview_path: string;
  /** The facts a card shows (its running days are counted from these by the SPA). */
  platforms: string[] | null;
  first_seen: string | null;
  last_seen: string | null;
  still_running: boolean;
  is_clear: boolean;
  /** A signed link to the blurred preview when the ad is locked, else null. */
  preview_url: string | null;
  /** Signed links to the display variants when the ad is clear, else null. */
  display_480_url: string | null;
  display_960_url: string | null;
  saved_at?: string;
}

/** What a Storage signed link grants: one object, from iat to exp (epoch seconds). */
export interface SignedLink {
  /** '<bucket>/<name>', as the token's url claim names it. */
  object: string;
  iat: number;
  exp: number;
}

/** The image-link secret the database signs with, as the storage service would read it. */
export async function imageLinkSecret(db: Queryable): Promise<string> {
  const { rows } = await db.query<{ value: string }>(`select value from private.settings where key = 'image_link_secret'`);
  if (!rows[0]) throw new Error('private.settings has no image_link_secret');
  return rows[0].value;
}

/** The start (epoch seconds) of the current 12-hour link window, as the database computes it. */
export async function imageLinkWindowStart(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ start: string }>('select private.image_link_window_start(now())::text as start');
  return Number(rows[0]!.start);
}

const jwtHeader = { alg: 'HS256', typ: 'JWT' };
const decodePart = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;

/**
 * Reads a signed link as Storage verifies it (object/sign/<bucket>/<name>?token=<HS256 JWT>):
 * the token's header, its HMAC-SHA256 under the secret, and a url claim naming the same object.
 * Throws on any mismatch.
 */
export function readSignedLink(link: string, secret: string): SignedLink {
  const match = /^object\/sign\/([a-z-]+\/[A-Za-z0-9/_.-]+)\?token=([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(link);
  if (!match) throw new Error(`Not a signed link: ${link}`);
  const [, object, header, payload, signature] = match as unknown as [string, string, string, string, string];
  if (JSON.stringify(decodePart(header)) !== JSON.stringify(jwtHeader)) throw new Error(`Unexpected token header in ${link}`);
  const expected = createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url');
  if (signature !== expected) throw new Error(`The token of ${link} is not signed with the image-link secret`);
  const claims = decodePart(payload);
  if (Object.keys(claims).sort().join() !== 'exp,iat,url') throw new Error(`Unexpected claims ${JSON.stringify(claims)}`);
  if (claims.url !== object) throw new Error(`The token names ${String(claims.url)}, the link ${object}`);
  if (!Number.isInteger(claims.iat) || !Number.isInteger(claims.exp)) throw new Error(`Non-integer times in ${JSON.stringify(claims)}`);
  return { object, iat: claims.iat as number, exp: claims.exp as number };
}

/** The objects an ad's three links point at ('ad-images/<name>'), or null where it has no link. */
export interface ImageLinks {
  preview: string | null;
  display480: string | null;
  display960: string | null;
}

/**
 * Reads an ad's links, checking each token's signature and that it was cut for the
 * window starting at windowStart: iat is the window's start, exp 24 hours later.
 */
export function imageLinksOf(ad: ListedAd, secret: string, windowStart: number): ImageLinks {
  const read = (link: string | null) => {
    if (link === null) return null;
    const signed = readSignedLink(link, secret);
    if (signed.iat !== windowStart || signed.exp !== windowStart + 86_400) {
      throw new Error(`${link} runs from ${signed.iat} to ${signed.exp}, not from ${windowStart} for 24 hours`);
    }
    return signed.object;
  };
  return { preview: read(ad.preview_url), display480: read(ad.display_480_url), display960: read(ad.display_960_url) };
}
