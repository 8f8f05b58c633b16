import { CLIENT_IP_HEADER } from '../http/node-adapter.ts';
import { AuthApiError } from './auth-errors.ts';

export interface RateLimit {
  max: number;
  windowSeconds: number;
}

/**
 * The local auth's limits, modelled on Supabase Auth's (GOTRUE_RATE_LIMIT_*).
 * Most count requests per client address over a sliding window. The two
 * account limits are backoffs instead: `max` failed sign-ins are free, then the
 * account waits `windowSeconds`, twice as long after each further failure (at
 * most an hour), until a right password or an hour without failures.
 */
export interface AuthRateLimits {
  /**
   * Failed password sign-ins from one address, all accounts together: a generous
   * budget for a shared address (a NAT, an office). Past it a wrong password
   * answers 429; a right one still signs in, so one abuser never locks out the
   * other people behind the same address.
   */
  signInFailures: RateLimit;
  /** Failed sign-ins (or current-password checks) of one account from one address, before that account backs off there. */
  accountSignInFailures: RateLimit;
  /** Failed sign-ins of one account from all addresses, before it backs off everywhere but the addresses it has sessions from. */
  accountSignInFailuresEverywhere: RateLimit;
  /** Sign-ups from one address (Supabase Auth: sign-ins and sign-ups, 30 per 5 minutes). */
  signUps: RateLimit;
  /** Requests that send an email, from one address: sign-up, recovery, magic links, resends, email changes. */
  emailRequests: RateLimit;
  /** Emails asked for one address, from anywhere (Supabase Auth: one a minute), whether or not it has an account. */
  emailsPerAddress: RateLimit;
  /** Email links and codes checked, so one-time codes cannot be guessed (Supabase Auth: 30 per 5 minutes). */
  verifications: RateLimit;
  /** Supabase Auth: 150 per 5 minutes. */
  tokenRefreshes: RateLimit;
}

export const DEFAULT_AUTH_RATE_LIMITS: AuthRateLimits = {
  signInFailures: { max: 300, windowSeconds: 60 * 60 },
  accountSignInFailures: { max: 5, windowSeconds: 60 },
  accountSignInFailuresEverywhere: { max: 20, windowSeconds: 60 },
  signUps: { max: 30, windowSeconds: 5 * 60 },
  // Hosted Supabase sends 2 emails an hour with its own mail server; local development needs more.
  emailRequests: { max: 30, windowSeconds: 60 * 60 },
  emailsPerAddress: { max: 1, windowSeconds: 60 },
  verifications: { max: 30, windowSeconds: 5 * 60 },
  tokenRefreshes: { max: 150, windowSeconds: 5 * 60 },
};

/** The longest an account waits after failed sign-ins; also how long failures are remembered. */
export const MAX_BACKOFF_SECONDS = 60 * 60;

const ENV_NAMES: Record<keyof AuthRateLimits, string> = {
  signInFailures: 'AUTH_RATE_LIMIT_SIGN_IN_FAILURES',
  accountSignInFailures: 'AUTH_RATE_LIMIT_ACCOUNT_SIGN_IN_FAILURES',
  accountSignInFailuresEverywhere: 'AUTH_RATE_LIMIT_ACCOUNT_SIGN_IN_FAILURES_EVERYWHERE',
  signUps: 'AUTH_RATE_LIMIT_SIGN_UPS',
  emailRequests: 'AUTH_RATE_LIMIT_EMAILS',
  emailsPerAddress: 'AUTH_RATE_LIMIT_EMAILS_PER_ADDRESS',
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

type WindowKind = Exclude<keyof AuthRateLimits, 'accountSignInFailures' | 'accountSignInFailuresEverywhere'>;

const MESSAGES: Record<WindowKind | 'account', string> = {
  signInFailures: 'Too many failed sign-in attempts from your network. Please try again in {wait}.',
  account: 'Too many failed sign-in attempts. Please try again in {wait}.',
  signUps: 'Too many sign-up attempts. Please try again in {wait}.',
  emailRequests: 'Too many emails requested. Please try again in {wait}.',
  emailsPerAddress: 'An email to this address was requested moments ago. Please try again in {wait}.',
  verifications: 'Too many verification attempts. Please try again in {wait}.',
  tokenRefreshes: 'Too many token refreshes. Please try again in {wait}.',
};

const EMAIL_KINDS = new Set<WindowKind>(['emailRequests', 'emailsPerAddress']);

/** The client's address as the local stack's HTTP server sets it: the socket's, or as a trusted proxy reports it (local/http/client-address.ts). */
export function clientAddress(request: Request): string {
  return request.headers.get(CLIENT_IP_HEADER)?.trim() || 'local';
}

const describeWait = (seconds: number) =>
  seconds < 90 ? `${seconds} second${seconds === 1 ? '' : 's'}` : `${Math.ceil(seconds / 60)} minutes`;

/** Supabase Auth's 429: over_request_rate_limit (or over_email_send_rate_limit) with Retry-After in seconds. */
function tooMany(code: 'over_request_rate_limit' | 'over_email_send_rate_limit', template: string, waitMs: number): AuthApiError {
  const retryAfter = Math.max(1, Math.ceil(waitMs / 1000));
  return new AuthApiError(429, code, template.replace('{wait}', describeWait(retryAfter)), {}, { 'retry-after': String(retryAfter) });
}

interface Backoff {
  failures: number;
  lastFailureAt: number;
  lockedUntil: number;
}

// Past this many remembered keys, stale ones are swept out, so random emails cannot grow memory without bound.
const SWEEP_THRESHOLD = 10_000;

export class RateLimiter {
  private readonly hits = new Map<string, number[]>();
  private readonly backoffs = new Map<string, Backoff>();

  constructor(
    private readonly limits: AuthRateLimits,
    /** Milliseconds since the epoch; tests pass a clock they move. */
    private readonly now: () => number = Date.now,
  ) {}

  private recent(kind: WindowKind, key: string, now: number): number[] {
    const mapKey = `${kind}\u0000${key}`;
    const since = now - this.limits[kind].windowSeconds * 1000;
    const kept = (this.hits.get(mapKey) ?? []).filter((at) => at > since);
    if (kept.length > 0) this.hits.set(mapKey, kept);
    else this.hits.delete(mapKey);
    return kept;
  }

  /** Throws 429 when this key (a client address, or an email address) has used up the limit. */
  check(kind: WindowKind, key: string): void {
    const now = this.now();
    const recent = this.recent(kind, key, now);
    const limit = this.limits[kind];
    if (recent.length < limit.max) return;
    const code = EMAIL_KINDS.has(kind) ? 'over_email_send_rate_limit' : 'over_request_rate_limit';
    throw tooMany(code, MESSAGES[kind], recent[0]! + limit.windowSeconds * 1000 - now);
  }

  record(kind: WindowKind, key: string): void {
    const now = this.now();
    this.hits.set(`${kind}\u0000${key}`, [...this.recent(kind, key, now), now]);
    this.sweep(now);
  }

  /** Checks the limit, then counts this request against it. */
  take(kind: WindowKind, key: string): void {
    this.check(kind, key);
    this.record(kind, key);
  }

  /** Whether the address is past its budget of failed sign-ins (all accounts together). */
  addressOverFailureBudget(address: string): boolean {
    return this.recent('signInFailures', address, this.now()).length >= this.limits.signInFailures.max;
  }

  /** The 429 for a wrong password from an address past its failure budget. */
  addressFailureBudgetError(address: string): AuthApiError {
    const now = this.now();
    const recent = this.recent('signInFailures', address, now);
    const oldest = recent[recent.length - this.limits.signInFailures.max] ?? now;
    return tooMany('over_request_rate_limit', MESSAGES.signInFailures, oldest + this.limits.signInFailures.windowSeconds * 1000 - now);
  }

  private liveBackoff(key: string, now: number): Backoff | null {
    const state = this.backoffs.get(key);
    if (!state) return null;
    if (state.lockedUntil <= now && now - state.lastFailureAt > MAX_BACKOFF_SECONDS * 1000) {
      this.backoffs.delete(key);
      return null;
    }
    return state;
  }

  /**
   * Throws 429 while the account backs off: from this address after its own
   * failures here, or everywhere after failures from many addresses (unless
   * `trustedAddress`: the account has a session from this address).
   */
  checkAccount(email: string, address: string, options: { trustedAddress?: boolean } = {}): void {
    const now = this.now();
    const here = this.liveBackoff(`here\u0000${email}\u0000${address}`, now);
    const everywhere = options.trustedAddress ? null : this.liveBackoff(`everywhere\u0000${email}`, now);
    const lockedUntil = Math.max(here?.lockedUntil ?? 0, everywhere?.lockedUntil ?? 0);
    if (lockedUntil > now) throw tooMany('over_request_rate_limit', MESSAGES.account, lockedUntil - now);
  }

  /** Whether the account backs off everywhere right now (then the caller may look up whether the address is trusted). */
  accountBacksOffEverywhere(email: string): boolean {
    const now = this.now();
    return (this.liveBackoff(`everywhere\u0000${email}`, now)?.lockedUntil ?? 0) > now;
  }

  /** Counts a wrong password for the account (from this address, and everywhere) and for the address. */
  recordFailure(email: string, address: string): void {
    const now = this.now();
    this.fail(`here\u0000${email}\u0000${address}`, this.limits.accountSignInFailures, now);
    this.fail(`everywhere\u0000${email}`, this.limits.accountSignInFailuresEverywhere, now);
    this.record('signInFailures', address);
  }

  /** A right password: the account's failures from this address are forgiven, and those everywhere. */
  recordSuccess(email: string, address: string): void {
    this.backoffs.delete(`here\u0000${email}\u0000${address}`);
    this.backoffs.delete(`everywhere\u0000${email}`);
  }

  private fail(key: string, limit: RateLimit, now: number): void {
    const state = this.liveBackoff(key, now) ?? { failures: 0, lastFailureAt: now, lockedUntil: 0 };
    state.failures += 1;
    state.lastFailureAt = now;
    if (state.failures >= limit.max) {
      const waitSeconds = Math.min(limit.windowSeconds * 2 ** Math.min(state.failures - limit.max, 30), MAX_BACKOFF_SECONDS);
      state.lockedUntil = now + waitSeconds * 1000;
    }
    this.backoffs.set(key, state);
    this.sweep(now);
  }

  private sweep(now: number): void {
    if (this.backoffs.size > SWEEP_THRESHOLD) {
      for (const key of [...this.backoffs.keys()]) this.liveBackoff(key, now);
    }
    if (this.hits.size > SWEEP_THRESHOLD) {
      for (const mapKey of [...this.hits.keys()]) {
        const [kind, key] = mapKey.split('\u0000') as [WindowKind, string];
        this.recent(kind, key, now);
      }
    }
  }
}
