import type { Ad } from '../../../lib/ad-schema.ts';

/** Session storage key of the grid seed: one per browser session, so the order stays put within it. */
export const GRID_SEED_KEY = 'obyect_grid_seed';

/** This session's seed, made once and then read back. */
export function sessionSeed(storage: Storage | null = safeSessionStorage()): number {
  const stored = Number.parseInt(storage?.getItem(GRID_SEED_KEY) ?? '', 10);
  if (Number.isInteger(stored) && stored > 0) return stored;
  const seed = 1 + Math.floor(Math.random() * 0x7ffffffe);
  storage?.setItem(GRID_SEED_KEY, String(seed));
  return seed;
}

function safeSessionStorage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** A 32-bit FNV-1a hash of the seed and a text: the same pair always gives the same number. */
export function seededRank(seed: number, text: string): number {
  let hash = 0x811c9dc5 ^ seed;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Ads in the seed's order: each ad's rank is hashed once, not once per comparison. */
function sortBySeed(ads: readonly Ad[], seed: number): Ad[] {
  return ads
    .map((ad) => ({ ad, rank: seededRank(seed, ad.id) }))
    .sort((a, b) => a.rank - b.rank || (a.ad.id < b.ad.id ? -1 : 1))
    .map((entry) => entry.ad);
}

/**
 * One page of a board in this session's order: shuffled by the seed, the
 * clear ads first (the server's teaser stays at the top of its page), then the
 * locked ones. Pages are shuffled each on its own, so loading more never moves
 * an ad already shown.
 */
export function shufflePage(ads: readonly Ad[], seed: number): Ad[] {
  const clear = sortBySeed(ads.filter((ad) => ad.is_clear), seed);
  const locked = sortBySeed(ads.filter((ad) => !ad.is_clear), seed);
  return [...clear, ...locked];
}
