import { z } from 'zod';
import type { LocalConfig } from '../config.ts';
import { type AuthRateLimits, DEFAULT_AUTH_RATE_LIMITS, rateLimitsFromEnv } from './rate-limits.ts';

/** Google sign-in through any OpenID Connect issuer (Google's, or a local test issuer). */
export interface GoogleProviderSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** What a caller of createAuthApi may set beyond the stack's configuration; tests use it. */
export interface AuthApiOptions {
  /** Over the defaults and the AUTH_RATE_LIMIT_* environment variables. */
  rateLimits?: Partial<AuthRateLimits>;
  /** How long a rotated refresh token may still be used, for clients refreshing concurrently. */
  refreshTokenReuseIntervalSeconds?: number;
  /** How long an email link or code stays valid. */
  emailLinkExpirySeconds?: number;
  /** How long a PKCE auth code may wait to be exchanged. */
  flowStateExpirySeconds?: number;
  minPasswordLength?: number;
  /** undefined reads GOOGLE_OIDC_ISSUER, GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET; null disables Google. */
  google?: GoogleProviderSettings | null;
  /** Used for the calls to the OpenID provider. */
  fetch?: typeof fetch;
  /** The rate limiter's clock (milliseconds since the epoch), for tests that move time on. */
  clock?: () => number;
}

export interface AuthSettings {
  siteUrl: string;
  /** Origins email links and sign-ins may return to (redirect_to): the site's, loopback on its port in development, and ADDITIONAL_REDIRECT_URLS. */
  redirectOrigins: string[];
  /** This API's public address, e.g. http://localhost:3000/auth/v1: the tokens' issuer and the base of email links. */
  apiUrl: string;
  jwtSecret: string;
  jwtExpirySeconds: number;
  refreshTokenReuseIntervalSeconds: number;
  emailLinkExpirySeconds: number;
  flowStateExpirySeconds: number;
  minPasswordLength: number;
  rateLimits: AuthRateLimits;
  google: GoogleProviderSettings | null;
}

const googleEnvSchema = z.object({
  GOOGLE_OIDC_ISSUER: z.string().url('GOOGLE_OIDC_ISSUER must be the issuer URL, e.g. https://accounts.google.com'),
  GOOGLE_CLIENT_ID: z.string().min(1, 'GOOGLE_CLIENT_ID is required'),
  GOOGLE_CLIENT_SECRET: z.string().min(1, 'GOOGLE_CLIENT_SECRET is required'),
});

/** Google sign-in from the environment: all three variables, or none (disabled). */
export function googleSettingsFromEnv(env: Record<string, string | undefined> = process.env): GoogleProviderSettings | null {
  const names = ['GOOGLE_OIDC_ISSUER', 'GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'] as const;
  if (names.every((name) => !env[name])) return null;
  const parsed = googleEnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`).join('\n');
    throw new Error(`Google sign-in needs GOOGLE_OIDC_ISSUER, GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET together:\n${problems}`);
  }
  return {
    issuer: parsed.data.GOOGLE_OIDC_ISSUER.replace(/\/+$/, ''),
    clientId: parsed.data.GOOGLE_CLIENT_ID,
    clientSecret: parsed.data.GOOGLE_CLIENT_SECRET,
  };
}

export function authSettings(config: LocalConfig, options: AuthApiOptions = {}): AuthSettings {
  const siteUrl = config.siteUrl.replace(/\/+$/, '');
  return {
    siteUrl,
    redirectOrigins: redirectOriginsOf(config),
    apiUrl: `${siteUrl}/auth/v1`,
    jwtSecret: config.JWT_SECRET,
    jwtExpirySeconds: config.JWT_EXPIRY,
    refreshTokenReuseIntervalSeconds: options.refreshTokenReuseIntervalSeconds ?? 10,
    emailLinkExpirySeconds: options.emailLinkExpirySeconds ?? 24 * 60 * 60,
    flowStateExpirySeconds: options.flowStateExpirySeconds ?? 5 * 60,
    minPasswordLength: options.minPasswordLength ?? 6,
    rateLimits: { ...DEFAULT_AUTH_RATE_LIMITS, ...rateLimitsFromEnv(), ...options.rateLimits },
    google: options.google === undefined ? googleSettingsFromEnv() : options.google,
  };
}

/**
 * Where redirect_to may point. In development the app is as much at
 * http://127.0.0.1:<port> as at http://localhost:<port> (the browser keeps a
 * session and a PKCE verifier per origin), so links return to the one the
 * request came from.
 */
export function redirectOriginsOf(config: Pick<LocalConfig, 'siteUrl' | 'PORT' | 'OBYECT_MODE' | 'ADDITIONAL_REDIRECT_URLS'>): string[] {
  const origins = new Set([new URL(config.siteUrl).origin]);
  if (config.OBYECT_MODE !== 'production') {
    for (const host of ['localhost', '127.0.0.1', '[::1]']) origins.add(`http://${host}:${config.PORT}`);
  }
  for (const url of config.ADDITIONAL_REDIRECT_URLS) origins.add(new URL(url).origin);
  return [...origins];
}
