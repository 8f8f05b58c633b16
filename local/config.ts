import { z } from 'zod';
import { statementTimeoutSettings } from './db/statement-timeouts.ts';
import { isLoopbackName, parseTrustedProxies } from './http/client-address.ts';
import { LOCAL_STRIPE_PRICES, LOCAL_STRIPE_SECRET_KEY, LOCAL_STRIPE_WEBHOOK_SECRET } from '../supabase/functions/_shared/local-stripe-defaults.ts';

/**
 * The local stack's settings, read from the environment once and validated.
 * The defaults are the well-known local development values that Supabase's
 * own CLI uses, so the same .env works against `supabase start` too.
 */
export const LOCAL_JWT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long';

const passwordHashCostSchema = z.coerce
  .number({ error: 'AUTH_PASSWORD_HASH_COST must be a whole number from 4 to 15' })
  .int('AUTH_PASSWORD_HASH_COST must be a whole number from 4 to 15')
  .min(4, 'AUTH_PASSWORD_HASH_COST must be a whole number from 4 to 15')
  .max(15, 'AUTH_PASSWORD_HASH_COST must be a whole number from 4 to 15')
  .default(10);

/** The bcrypt cost AUTH_PASSWORD_HASH_COST sets (local/auth/passwords.ts reads it once, as it loads). */
export function passwordHashCost(env: Record<string, string | undefined> = process.env): number {
  return passwordHashCostSchema.parse(env.AUTH_PASSWORD_HASH_COST === '' ? undefined : env.AUTH_PASSWORD_HASH_COST);
}

const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  SITE_URL: z.string().url().optional(),
  JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').default(LOCAL_JWT_SECRET),
  JWT_EXPIRY: z.coerce.number().int().min(60).default(3600),
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('.data'),
  SMTP_URL: z.string().url().optional(),
  /** Per-role statement timeouts in ms, 0 for none: anon 3000, authenticated 8000, service_role 0 as on hosted Supabase. */
  ...statementTimeoutSettings,
  /** The largest request body rest, auth and functions accept, in bytes (storage uploads: each bucket's file_size_limit). */
  MAX_REQUEST_BODY_BYTES: z.coerce.number().int().min(1024, 'MAX_REQUEST_BODY_BYTES must be at least 1024').max(256 * 1024 * 1024, 'MAX_REQUEST_BODY_BYTES must be at most 256 MiB').default(1024 * 1024),
  // Realtime caps, after Supabase Realtime's limits (local/realtime/README.md).
  REALTIME_MAX_CHANNELS_PER_CONNECTION: z.coerce.number().int().min(1).max(10_000).default(100),
  REALTIME_MAX_JOINS_PER_SECOND: z.coerce.number().int().min(1).max(10_000).default(100),
  REALTIME_MAX_CONNECTIONS_PER_USER: z.coerce.number().int().min(1).max(100_000).default(50),
  REALTIME_MAX_CONNECTIONS_PER_IP: z.coerce.number().int().min(1).max(100_000).default(200),
  REALTIME_MAX_OUTGOING_BUFFER_BYTES: z.coerce.number().int().min(64 * 1024).max(1024 * 1024 * 1024).default(4 * 1024 * 1024),
  /**
   * The proxies whose X-Forwarded-For is believed (local/http/client-address.ts): empty (default) for none, a number of
   * proxies in front, or their addresses and ranges (`loopback` for a proxy on this machine). Rate limits key on the
   * client address this gives.
   */
  TRUSTED_PROXIES: z.string().default('').superRefine((value, context) => {
    try {
      parseTrustedProxies(value);
    } catch (error) {
      context.addIssue({ code: 'custom', message: (error as Error).message });
    }
  }),
  /**
   * bcrypt's cost for stored passwords: 10 (GoTrue's) unless set. The test runs set 4, bcrypt's lowest, since they
   * hash thousands of passwords; production refuses less than 10.
   */
  AUTH_PASSWORD_HASH_COST: passwordHashCostSchema,
  /** development (default): the mailbox and local Stripe on loopback; production: none of them, see README. */
  OBYECT_MODE: z.enum(['development', 'production']).default('development'),
  /** Comma-separated extra host names (host or host:port) the stack answers to besides SITE_URL's. */
  ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((list) => list.split(',').map((host) => host.trim().toLowerCase()).filter(Boolean)),
  /** Comma-separated URLs whose origins email links and sign-in may return to besides SITE_URL's (GoTrue's URI allow list). */
  ADDITIONAL_REDIRECT_URLS: z
    .string()
    .default('')
    .transform((list) => list.split(',').map((url) => url.trim()).filter(Boolean))
    .pipe(z.array(z.string().url('ADDITIONAL_REDIRECT_URLS must list absolute URLs'))),
});

/** What production mode cannot run without: each one a development default or door otherwise. */
const productionSchema = z.object({
  SITE_URL: z.string({ error: 'SITE_URL (the public https URL) is required' }).url().refine((url) => url.startsWith('https://'), 'SITE_URL must be an https URL'),
  SMTP_URL: z.string({ error: 'SMTP_URL is required (production has no local mailbox)' }).url(),
  DATABASE_URL: z.string({ error: 'DATABASE_URL (PostgreSQL) is required' }).url(),
  JWT_SECRET: z.string({ error: 'JWT_SECRET is required' }).refine((value) => value !== LOCAL_JWT_SECRET, 'JWT_SECRET must not be the well-known local value'),
  STRIPE_SECRET_KEY: z
    .string({ error: 'STRIPE_SECRET_KEY is required (production has no local Stripe)' })
    .regex(/^(sk|rk)_(live|test)_\w+$/, 'STRIPE_SECRET_KEY must be a Stripe secret key')
    .refine((value) => value !== LOCAL_STRIPE_SECRET_KEY, 'STRIPE_SECRET_KEY must not be the local development value'),
  STRIPE_WEBHOOK_SECRET: z
    .string({ error: 'STRIPE_WEBHOOK_SECRET is required' })
    .startsWith('whsec_', 'STRIPE_WEBHOOK_SECRET must be a Stripe signing secret')
    .refine((value) => value !== LOCAL_STRIPE_WEBHOOK_SECRET, 'STRIPE_WEBHOOK_SECRET must not be the local development value'),
  AUTH_PASSWORD_HASH_COST: passwordHashCostSchema.refine((cost) => cost >= 10, 'AUTH_PASSWORD_HASH_COST must be at least 10 in production'),
  STRIPE_PRICE_MONTHLY: z.string({ error: 'STRIPE_PRICE_MONTHLY is required' }).refine((value) => value !== LOCAL_STRIPE_PRICES.monthly, 'STRIPE_PRICE_MONTHLY must not be the local development value'),
  STRIPE_PRICE_ANNUAL: z.string({ error: 'STRIPE_PRICE_ANNUAL is required' }).refine((value) => value !== LOCAL_STRIPE_PRICES.annual, 'STRIPE_PRICE_ANNUAL must not be the local development value'),
});

export type LocalConfig = z.infer<typeof configSchema> & { siteUrl: string; anonKey: string; serviceRoleKey: string };

export function readConfig(env: Record<string, string | undefined> = process.env): z.infer<typeof configSchema> {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) throw new Error(`Invalid environment for the local stack:\n${problemList(parsed.error)}`);
  if (parsed.data.OBYECT_MODE === 'production') {
    // Empty values count as unset: a blank line in .env must not pass for a setting.
    const set = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
    const production = productionSchema.safeParse(set);
    if (!production.success) throw new Error(`OBYECT_MODE=production needs real settings (see README, "Production mode"):\n${problemList(production.error)}`);
    // Listening on loopback, only a proxy on this machine reaches the stack: without TRUSTED_PROXIES every visitor
    // would have its address, and one abuser's rate limit would stop everyone.
    if (isLoopbackName(parsed.data.HOST) && parsed.data.TRUSTED_PROXIES.trim() === '') {
      throw new Error(
        'OBYECT_MODE=production needs real settings (see README, "Production mode"):\n' +
          '  TRUSTED_PROXIES: required behind the proxy on this machine (HOST is loopback): set it to loopback, the proxy\'s address, or the number of proxies in front',
      );
    }
  }
  return parsed.data;
}

function problemList(error: z.ZodError): string {
  return error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`).join('\n');
}
