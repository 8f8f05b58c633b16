// No imports: read by the functions (Deno) and by the local Stripe test endpoint (Node) alike.

/**
 * What the functions and the local Stripe test endpoint (local/stripe) agree on
 * when no STRIPE_SECRET_KEY is configured. Production sets real values.
 */
export const LOCAL_STRIPE_SECRET_KEY = 'sk_test_obyect_local';
export const LOCAL_STRIPE_WEBHOOK_SECRET = 'whsec_obyect_local_test_endpoint';
export const LOCAL_STRIPE_PRICES = { monthly: 'price_obyect_monthly', annual: 'price_obyect_annual' } as const;
/** The trial every checkout starts with (spec: 7 days, no charge today). */
export const TRIAL_DAYS = 7;
/** How old a webhook signature may be, in seconds. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;
