import { readBillingEnv, type BillingEnv } from './billing-env.ts';
import { createBillingStore, type BillingStore } from './billing-store.ts';
import { createAuthenticate, type Authenticate } from './signed-in-user.ts';
import { createStripeClient, type Stripe } from './stripe-client.ts';
import { readSupabaseEnv } from './supabase-env.ts';

export interface BillingServices {
  env: BillingEnv;
  stripe: Stripe;
  store: BillingStore;
  authenticate: Authenticate;
  supabaseUrl: string;
  anonKey: string;
}

let services: BillingServices | null = null;

/** Built on first use, so that importing a handler (as its tests do) needs no environment. */
export function billingServices(): BillingServices {
  if (!services) {
    const supabase = readSupabaseEnv();
    const env = readBillingEnv();
    services = {
      env,
      stripe: createStripeClient(env),
      store: createBillingStore(supabase.SUPABASE_URL, supabase.SUPABASE_SERVICE_ROLE_KEY),
      authenticate: createAuthenticate(supabase.SUPABASE_URL, supabase.SUPABASE_ANON_KEY),
      supabaseUrl: supabase.SUPABASE_URL,
      anonKey: supabase.SUPABASE_ANON_KEY,
    };
  }
  return services;
}
