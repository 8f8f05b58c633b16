import { InvalidJwtError, verifyJwt, type AccessClaims } from '../auth/jwt.ts';

export class MissingApiKeyError extends Error {}

/** The bearer token, or the apikey when there is none, as Supabase's gateway reads them. */
export function tokenOf(request: Request): string | null {
  const authorization = request.headers.get('authorization');
  const bearer = authorization?.match(/^Bearer\s+(.+)$/i)?.[1]?.trim();
  return bearer || request.headers.get('apikey')?.trim() || null;
}

/**
 * Tokens whose signature was verified, by secret: the same token under the
 * same secret always verifies to the same claims, so only the time claims are
 * checked again on each use (an expired token goes through verifyJwt, which
 * refuses it with its usual message). Bounded: the oldest entry goes first.
 */
const VERIFIED_LIMIT = 1000;
const verified = new Map<string, Map<string, AccessClaims>>();

function stillValid(claims: AccessClaims, now: number): boolean {
  if (typeof claims.exp === 'number' && claims.exp <= now) return false;
  if (typeof claims.nbf === 'number' && claims.nbf > now) return false;
  return true;
}

/** verifyJwt, remembering tokens that passed. */
export async function verifiedClaims(token: string, jwtSecret: string): Promise<AccessClaims> {
  let bySecret = verified.get(jwtSecret);
  const known = bySecret?.get(token);
  if (known && stillValid(known, Math.floor(Date.now() / 1000))) return known;
  if (known) bySecret!.delete(token);
  const claims = await verifyJwt(token, jwtSecret);
  if (!bySecret) {
    bySecret = new Map();
    verified.set(jwtSecret, bySecret);
  }
  if (bySecret.size >= VERIFIED_LIMIT) bySecret.delete(bySecret.keys().next().value!);
  bySecret.set(token, claims);
  return claims;
}

/** The verified claims of the caller, or MissingApiKeyError / InvalidJwtError. */
export async function callerClaims(request: Request, jwtSecret: string): Promise<AccessClaims> {
  const token = tokenOf(request);
  if (!token) throw new MissingApiKeyError('No API key found in request');
  return verifiedClaims(token, jwtSecret);
}

export { InvalidJwtError };
