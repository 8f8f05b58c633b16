import * as z from 'zod/mini';
import { LOCAL_STRIPE_PRICES } from '../../supabase/functions/_shared/local-stripe-defaults.ts';

/** The local stack's default anon key (a public development value, see .env.example). */
const LOCAL_ANON_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJpYXQiOjE2NDE3NjkyMDAsImV4cCI6MTk4MzgxMjk5Nn0.jkAl8ZbvuOYg3HGfFtNz6Tpe6hVLlRPpATG0okuLsIg';

/**
 * The SPA's settings, validated once at start so a bad build fails with a clear
 * message. Without VITE_SUPABASE_URL the SPA talks to the local stack that serves it.
 */
const envSchema = z
  .object({
    VITE_SUPABASE_URL: z.optional(z.string().check(z.url('VITE_SUPABASE_URL must be an http(s) URL'))),
    VITE_SUPABASE_ANON_KEY: z.optional(z.string().check(z.regex(/^[\w-]+\.[\w-]+\.[\w-]+$/, 'VITE_SUPABASE_ANON_KEY must be a JWT'))),
    VITE_FEEDBACK_FORM_URL: z.optional(z.string().check(z.url('VITE_FEEDBACK_FORM_URL must be an http(s) URL'))),
    VITE_CONTACT_EMAIL: z.optional(z.string().check(z.email('VITE_CONTACT_EMAIL must be an email address'))),
    /** Stripe's public price ids (not secrets): the same values as the functions' STRIPE_PRICE_MONTHLY / _ANNUAL. */
    VITE_STRIPE_PRICE_MONTHLY: z.optional(z.string().check(z.regex(/^price_\w+$/, 'VITE_STRIPE_PRICE_MONTHLY must be a Stripe price id'))),
    VITE_STRIPE_PRICE_ANNUAL: z.optional(z.string().check(z.regex(/^price_\w+$/, 'VITE_STRIPE_PRICE_ANNUAL must be a Stripe price id'))),
  })
  .check(
    z.refine((value) => !value.VITE_SUPABASE_URL || value.VITE_SUPABASE_ANON_KEY, {
      message: 'VITE_SUPABASE_ANON_KEY is required with VITE_SUPABASE_URL',
    }),
    z.refine((value) => !value.VITE_STRIPE_PRICE_MONTHLY === !value.VITE_STRIPE_PRICE_ANNUAL, {
      message: 'VITE_STRIPE_PRICE_MONTHLY and VITE_STRIPE_PRICE_ANNUAL are set together',
    }),
  );

const parsed = envSchema.safeParse(import.meta.env);
if (!parsed.success) {
  throw new Error(`Invalid SPA environment: ${parsed.error.issues.map((issue) => issue.message).join('; ')}`);
}

export const env = {
  supabaseUrl: parsed.data.VITE_SUPABASE_URL ?? window.location.origin,
  supabaseAnonKey: parsed.data.VITE_SUPABASE_ANON_KEY ?? LOCAL_ANON_KEY,
  feedbackFormUrl: parsed.data.VITE_FEEDBACK_FORM_URL ?? 'https://forms.gle/obyect-feedback',
  contactEmail: parsed.data.VITE_CONTACT_EMAIL ?? 'hello@obyect.com',
  /** Unset: the local Stripe test endpoint's prices, which the functions use when no Stripe key is configured. */
  stripePrices: {
    monthly: parsed.data.VITE_STRIPE_PRICE_MONTHLY ?? LOCAL_STRIPE_PRICES.monthly,
    annual: parsed.data.VITE_STRIPE_PRICE_ANNUAL ?? LOCAL_STRIPE_PRICES.annual,
  },
};
