import { jwtVerify, SignJWT, errors as joseErrors } from 'jose';

/** Claims of the tokens the local auth issues, shaped like Supabase Auth's. */
export interface AccessClaims {
  sub?: string;
  role: 'anon' | 'authenticated' | 'service_role';
  aud?: string | string[];
  exp?: number;
  iat?: number;
  iss?: string;
  email?: string;
  phone?: string;
  app_metadata?: Record<string, unknown>;
  user_metadata?: Record<string, unknown>;
  aal?: string;
  amr?: { method: string; timestamp: number }[];
  session_id?: string;
  is_anonymous?: boolean;
  [claim: string]: unknown;
}

export class InvalidJwtError extends Error {
  readonly code = 'invalid_jwt';
}

const API_ROLES = new Set(['anon', 'authenticated', 'service_role']);
const keyOf = (secret: string) => new TextEncoder().encode(secret);

export async function signJwt(claims: AccessClaims, secret: string, expiresInSeconds?: number): Promise<string> {
  const jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' });
  if (!claims.iat) jwt.setIssuedAt();
  if (expiresInSeconds !== undefined) jwt.setExpirationTime(Math.floor(Date.now() / 1000) + expiresInSeconds);
  return jwt.sign(keyOf(secret));
}

/** Verifies an HS256 token and returns its claims, or throws InvalidJwtError with a clear message. */
export async function verifyJwt(token: string, secret: string): Promise<AccessClaims> {
  if (!/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token)) {
    throw new InvalidJwtError('invalid JWT: token must have three base64url parts');
  }
  try {
    const { payload } = await jwtVerify(token, keyOf(secret), { algorithms: ['HS256'] });
    if (typeof payload.role !== 'string' || !API_ROLES.has(payload.role)) {
      throw new InvalidJwtError('invalid JWT: unknown role');
    }
    if (payload.role === 'authenticated' && typeof payload.sub !== 'string') {
      throw new InvalidJwtError('invalid JWT: missing sub claim');
    }
    return payload as AccessClaims;
  } catch (error) {
    if (error instanceof InvalidJwtError) throw error;
    if (error instanceof joseErrors.JWTExpired) throw new InvalidJwtError('invalid JWT: token is expired');
    if (error instanceof joseErrors.JWSSignatureVerificationFailed) {
      throw new InvalidJwtError('invalid JWT: signature is invalid');
    }
    throw new InvalidJwtError(`invalid JWT: ${(error as Error).message}`);
  }
}

/** The long-lived API keys: JWTs for the anon and service roles, as Supabase issues them. */
export async function apiKeys(secret: string): Promise<{ anonKey: string; serviceRoleKey: string }> {
  const iat = 1641769200;
  const exp = 1983812996;
  const anonKey = await signJwt({ iss: 'supabase-demo', role: 'anon', iat, exp }, secret);
  const serviceRoleKey = await signJwt({ iss: 'supabase-demo', role: 'service_role', iat, exp }, secret);
  return { anonKey, serviceRoleKey };
}
