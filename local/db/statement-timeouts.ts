import { z } from 'zod';

/**
 * How long one statement of each API role may run, in milliseconds; 0 means
 * no limit. The defaults are hosted Supabase's (anon 3 s, authenticated 8 s,
 * service_role none), which it sets with `alter role ... set statement_timeout`.
 */
export interface StatementTimeouts {
  anon: number;
  authenticated: number;
  service_role: number;
}

export const SUPABASE_STATEMENT_TIMEOUTS: StatementTimeouts = { anon: 3_000, authenticated: 8_000, service_role: 0 };

/** The setting that PGlite's watchdog and PostgreSQL's statement_timeout both read, per role. */
const timeoutMs = (name: string, fallback: number) =>
  z.coerce
    .number({ error: `${name} must be a number of milliseconds` })
    .int(`${name} must be a whole number of milliseconds`)
    .min(0, `${name} must be 0 (no limit) or more`)
    .max(3_600_000, `${name} must be at most 3600000 (one hour)`)
    .default(fallback);

/** The environment settings, merged into local/config.ts's schema. */
export const statementTimeoutSettings = {
  STATEMENT_TIMEOUT_ANON_MS: timeoutMs('STATEMENT_TIMEOUT_ANON_MS', SUPABASE_STATEMENT_TIMEOUTS.anon),
  STATEMENT_TIMEOUT_AUTHENTICATED_MS: timeoutMs('STATEMENT_TIMEOUT_AUTHENTICATED_MS', SUPABASE_STATEMENT_TIMEOUTS.authenticated),
  STATEMENT_TIMEOUT_SERVICE_ROLE_MS: timeoutMs('STATEMENT_TIMEOUT_SERVICE_ROLE_MS', SUPABASE_STATEMENT_TIMEOUTS.service_role),
};

export interface StatementTimeoutConfig {
  STATEMENT_TIMEOUT_ANON_MS?: number;
  STATEMENT_TIMEOUT_AUTHENTICATED_MS?: number;
  STATEMENT_TIMEOUT_SERVICE_ROLE_MS?: number;
}

export function statementTimeoutsOf(config: StatementTimeoutConfig): StatementTimeouts {
  return {
    anon: config.STATEMENT_TIMEOUT_ANON_MS ?? SUPABASE_STATEMENT_TIMEOUTS.anon,
    authenticated: config.STATEMENT_TIMEOUT_AUTHENTICATED_MS ?? SUPABASE_STATEMENT_TIMEOUTS.authenticated,
    service_role: config.STATEMENT_TIMEOUT_SERVICE_ROLE_MS ?? SUPABASE_STATEMENT_TIMEOUTS.service_role,
  };
}

/** A role the timeouts do not name (none today) gets the strictest one, never none. */
export function statementTimeoutOf(timeouts: StatementTimeouts, role: string): number {
  if (role === 'anon' || role === 'authenticated' || role === 'service_role') return timeouts[role];
  return timeouts.anon;
}

/** PostgreSQL's own text for SQLSTATE 57014, so both engines fail a statement the same way. */
export const STATEMENT_TIMEOUT_CODE = '57014';
export const STATEMENT_TIMEOUT_MESSAGE = 'canceling statement due to statement timeout';
