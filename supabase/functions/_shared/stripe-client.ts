import Stripe from 'npm:stripe@23.1.0';
import type { BillingEnv } from './billing-env.ts';
import { LOCAL_STRIPE_SECRET_KEY } from './local-stripe-defaults.ts';

export { Stripe };

/**
 * The official SDK, talking to Stripe or, without a secret key, to the local
 * stack's Stripe-compatible test endpoint: the same calls either way.
 */
export function createStripeClient(env: BillingEnv): Stripe {
  return new Stripe(env.stripeSecretKey ?? LOCAL_STRIPE_SECRET_KEY, {
    httpClient: Stripe.createFetchHttpClient(),
    maxNetworkRetries: 2,
    telemetry: false,
    ...(env.stripeApi ? { host: env.stripeApi.host, port: env.stripeApi.port, protocol: env.stripeApi.protocol } : {}),
  });
}

/** Web Crypto for signature checks: Deno has no Node crypto for the SDK's default provider. */
export const webCryptoProvider = Stripe.createSubtleCryptoProvider();

/** A Stripe API error's message, or null when the error did not come from Stripe. */
export function stripeErrorMessage(error: unknown): string | null {
  return error instanceof Stripe.errors.StripeError ? error.message : null;
}
