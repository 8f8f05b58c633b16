import { z } from 'npm:zod@4';
import { LOCAL_STRIPE_PRICES, LOCAL_STRIPE_WEBHOOK_SECRET } from './local-stripe-defaults.ts';

/** An unset and an empty variable mean the same: not configured. */
const setting = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (value === '' ? undefined : value), schema);

const billingEnvSchema = z
  .object({
    SUPABASE_URL: z.string().url(),
    SITE_URL: z.string().url(),
    /** Comma-separated origins that may receive the checkout's return, besides SITE_URL's. */
    ALLOWED_ORIGINS: setting(z.string().optional()),
    /** Unset: the local Stripe test endpoint (local/stripe) answers instead of Stripe. */
    STRIPE_SECRET_KEY: setting(z.string().optional()),
    STRIPE_WEBHOOK_SECRET: setting(z.string().optional()),
    STRIPE_PRICE_MONTHLY: setting(z.string().optional()),
    STRIPE_PRICE_ANNUAL: setting(z.string().optional()),
    STRIPE_API_HOST: setting(z.string().optional()),
    STRIPE_API_PORT: setting(z.coerce.number().int().min(1).max(65535).optional()),
    STRIPE_API_PROTOCOL: setting(z.enum(['http', 'https']).optional()),
  })
  .superRefine((env, issues) => {
    if (!env.STRIPE_SECRET_KEY) return;
    // With real Stripe the local defaults would only fail later, at the first call.
    for (const name of ['STRIPE_WEBHOOK_SECRET', 'STRIPE_PRICE_MONTHLY', 'STRIPE_PRICE_ANNUAL'] as const) {
      if (!env[name]) issues.addIssue({ code: 'custom', path: [name], message: `${name} is required with STRIPE_SECRET_KEY` });
    }
  });

export interface BillingEnv {
  supabaseUrl: string;
  siteUrl: string;
  allowedOrigins: string[];
  /** null: the local Stripe test endpoint. */
  stripeSecretKey: string | null;
  webhookSecret: string;
  prices: { monthly: string; annual: string };
  stripeApi: { host: string; port: number; protocol: 'http' | 'https' } | null;
}

const originOf = (url: string) => {
  const parsed = URL.canParse(url) ? new URL(url) : null;
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw new Error(`Billing environment is invalid: ALLOWED_ORIGINS: ${url} is not an http(s) URL`);
  }
  return parsed.origin;
};

/** The billing functions' settings; without STRIPE_SECRET_KEY, the local test endpoint on the stack's own origin. */
export function readBillingEnv(source: Record<string, string> = Deno.env.toObject()): BillingEnv {
  const parsed = billingEnvSchema.safeParse(source);
  if (!parsed.success) {
    throw new Error(`Billing environment is invalid: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
  }
  const env = parsed.data;
  const supabase = new URL(env.SUPABASE_URL);
  const protocol = env.STRIPE_API_PROTOCOL ?? (env.STRIPE_SECRET_KEY ? 'https' : (supabase.protocol.replace(':', '') as 'http' | 'https'));
  const defaultPort = protocol === 'https' ? 443 : 80;
  const stripeApi = env.STRIPE_SECRET_KEY
    ? env.STRIPE_API_HOST
      ? { host: env.STRIPE_API_HOST, port: env.STRIPE_API_PORT ?? defaultPort, protocol }
      : null
    : {
        host: env.STRIPE_API_HOST ?? supabase.hostname,
        port: env.STRIPE_API_PORT ?? (env.STRIPE_API_HOST ? defaultPort : Number(supabase.port || defaultPort)),
        protocol,
      };
  return {
    supabaseUrl: env.SUPABASE_URL,
    siteUrl: env.SITE_URL.replace(/\/+$/, ''),
    allowedOrigins: [
      originOf(env.SITE_URL),
      ...(env.ALLOWED_ORIGINS ?? '').split(',').map((origin) => origin.trim()).filter(Boolean).map(originOf),
    ],
    stripeSecretKey: env.STRIPE_SECRET_KEY ?? null,
    webhookSecret: env.STRIPE_WEBHOOK_SECRET ?? LOCAL_STRIPE_WEBHOOK_SECRET,
    prices: { monthly: env.STRIPE_PRICE_MONTHLY ?? LOCAL_STRIPE_PRICES.monthly, annual: env.STRIPE_PRICE_ANNUAL ?? LOCAL_STRIPE_PRICES.annual },
    stripeApi,
  };
}
