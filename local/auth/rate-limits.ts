import { CLIENT_IP_HEADER } from '../http/node-adapter.ts';
import { AuthApiError } from './auth-errors.ts';

export interface RateLimit {
  max: number;
  windowSeconds: number;
}

/** Per client address, over a sliding window. */
export interface AuthRateLimits {
  /** Failed password sign-ins. */
  signInFailures: RateLimit;
  signUps: RateLimit;
  /** Requests that send an email link: password recovery, magic links, resends. */
  emailRequests: RateLimit;
  /** Email links and codes checked, so one-time codes cannot be guessed. */
  verifications: RateLimit;
  tokenRefreshes: RateLimit;
}

export const DEFAULT_AUTH_RATE_LIMITS: AuthRateLimits = {
  signInFailures: { max: 5, windowSeconds: 5 * 60 },
  signUps: { max: 50, windowSeconds: 60 * 60 },
  emailRequests: { max: 30, windowSeconds: 60 * 60 },
  verifications: { max: 60, windowSeconds: 5 * 60 },
  tokenRefreshes: { max: 300, windowSeconds: 5 * 60 },
};

const ENV_NAMES: Record<keyof AuthRateLimits, string> = {
  signInFailures: 'AUTH_RATE_LIMIT_SIGN_IN_FAILURES',
  signUps: 'AUTH_RATE_LIMIT_SIGN_UPS',
  emailRequests: 'AUTH_RATE_LIMIT_EMAILS',
  verifications: 'AUTH_RATE_LIMIT_VERIFICATIONS',
  tokenRefreshes: 'AUTH_RATE_LIMIT_TOKEN_REFRESHES',
};

/** Limits set in the environment as <max>/<window seconds>, e.g. AUTH_RATE_LIMIT_SIGN_UPS=500/3600. */
export function rateLimitsFromEnv(env: Record<string, string | undefined> = process.env): Partial<AuthRateLimits> {
  const limits: Partial<AuthRateLimits> = {};
  for (const [kind, name] of Object.entries(ENV_NAMES) as [keyof AuthRateLimits, string][]) {
    const value = env[name];
    if (!value) continue;
    const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(value);
    if (!match || Number(match[2]) === 0) {
      throw new Error(`${name} must be <max>/<window seconds>, e.g. ${name}=100/3600; got ${JSON.stringify(value)}`);
    }
    limits[kind] = { max: Number(match[1]), windowSeconds: Number(match[2]) };
  }
  return limits;
}

const MESSAGES: Record<keyof AuthRateLimits, string> = {
  signInFailures: 'Too many failed sign-in attempts. Please try again in {wait}.',
  signUps: 'Too many sign-up attempts. Please try again in {wait}.',
  emailRequests: 'Too many emails requested. Please try again in {wait}.',
  verifications: 'Too many verification attempts. Please try again in {wait}.',
  tokenRefreshes: 'Too many token refreshes. Please try again in {wait}.',
};

/** The client's address as the local stack's HTTP server sets it; X-Forwarded-For is never trusted. */
export function clientAddress(request: Request): string {
  return request.headers.get(CLIENT_IP_HEADER)?.trim() || 'local';
}

const describeWait = (seconds: number) =>
  seconds < 90 ? `${seconds} second${seconds === 1 ? '' : 's'}` : `${Math.ceil(seconds / 60)} minutes`;

export class RateLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(private readonly limits: AuthRateLimits) {}

  private recent(kind: keyof AuthRateLimits, address: string, now: number): number[] {
    const key = `${kind}\u0000${address}`;
    const since = now - this.limits[kind].windowSeconds * 1000;
    const kept = (this.hits.get(key) ?? []).filter((at) => at > since);
    if (kept.length > 0) this.hits.set(key, kept);
    else this.hits.delete(key);
    return kept;
  }

  /** Throws 429 when the address has used up this limit. */
  check(kind: keyof AuthRateLimits, address: string): void {
    const now = Date.now();
    const recent = this.recent(kind, address, now);
    const limit = this.limits[kind];
    if (recent.length < limit.max) return;
    const retryAfter = Math.max(1, Math.ceil((recent[0]! + limit.windowSeconds * 1000 - now) / 1000));
    const code = kind === 'emailRequests' ? 'over_email_send_rate_limit' : 'over_request_rate_limit';
    throw new AuthApiError(429, code, MESSAGES[kind].replace('{wait}', describeWait(retryAfter)), {}, {
      'retry-after': String(retryAfter),
    });
  }

  record(kind: keyof AuthRateLimits, address: string): void {
    const now = Date.now();
    this.hits.set(`${kind}\u0000${address}`, [...this.recent(kind, address, now), now]);
  }

  /** Checks the limit, then counts this request against it. */
  take(kind: keyof AuthRateLimits, address: string): void {
    this.check(kind, address);
    this.record(kind, address);
  }
}
