import { z } from 'zod';
import { LOCAL_STRIPE_PRICES, LOCAL_STRIPE_WEBHOOK_SECRET } from '../../supabase/functions/_shared/local-stripe-defaults.ts';
import type { Database } from '../db/database.ts';
import type { ApiHandler } from '../http/api-handler.ts';
import { createBillingEngine } from './billing-engine.ts';
import { catalogueObjects } from './catalogue.ts';
import { createStripeApi } from './stripe-api.ts';
import { createStripePages } from './stripe-pages.ts';
import { openStripeState } from './stripe-state.ts';
import { createWebhookDeliveries } from './webhook-deliveries.ts';

/** The API version the local endpoint speaks: stripe@23's, which the functions use. */
export const LOCAL_STRIPE_API_VERSION = '2026-10-28.endive';

const unsetIfEmpty = (value: unknown) => (value === '' ? undefined : value);

const settingsSchema = z.object({
  STRIPE_WEBHOOK_SECRET: z.preprocess(unsetIfEmpty, z.string().default(LOCAL_STRIPE_WEBHOOK_SECRET)),
  /** Comma-separated webhook endpoints; by default the stack's own stripe-webhook function. */
  STRIPE_WEBHOOK_URL: z.preprocess(unsetIfEmpty, z.string().optional()),
  STRIPE_PRICE_MONTHLY: z.preprocess(unsetIfEmpty, z.string().default(LOCAL_STRIPE_PRICES.monthly)),
  STRIPE_PRICE_ANNUAL: z.preprocess(unsetIfEmpty, z.string().default(LOCAL_STRIPE_PRICES.annual)),
});

export interface StripeEndpoint {
  /** Serves /v1/ (the API, where the SDK sends its calls) and /_stripe/ (checkout, portal, test clock). */
  handler: ApiHandler;
  close(): Promise<void>;
}

/**
 * The Stripe-compatible test endpoint of the local stack, used by the
 * functions when no STRIPE_SECRET_KEY is set. Its state lives in the
 * database (schema stripe_local), so it survives restarts.
 */
export async function createStripeEndpoint(options: {
  db: Database;
  env: Record<string, string | undefined>;
  stackUrl: string;
  log: (line: string) => void;
}): Promise<StripeEndpoint> {
  const parsed = settingsSchema.safeParse(options.env);
  if (!parsed.success) throw new Error(`Invalid Stripe settings for the local stack: ${parsed.error.issues.map((issue) => issue.path.join('.')).join(', ')}`);
  const settings = parsed.data;
  const webhookUrls = (settings.STRIPE_WEBHOOK_URL ?? `${options.stackUrl}/functions/v1/stripe-webhook`)
    .split(',')
    .map((url) => url.trim())
    .filter(Boolean);
  for (const url of webhookUrls) {
    if (!/^https?:\/\//.test(url)) throw new Error(`Invalid Stripe settings for the local stack: STRIPE_WEBHOOK_URL ${url} is not an http(s) URL`);
  }

  const state = await openStripeState(options.db);
  await state.save(catalogueObjects({ monthly: settings.STRIPE_PRICE_MONTHLY, annual: settings.STRIPE_PRICE_ANNUAL }));
  const engine = createBillingEngine({ state, stackUrl: options.stackUrl, webhookUrls, apiVersion: LOCAL_STRIPE_API_VERSION });
  const deliveries = createWebhookDeliveries({ state, secret: settings.STRIPE_WEBHOOK_SECRET, log: options.log });
  const api = createStripeApi({ state, engine, apiVersion: LOCAL_STRIPE_API_VERSION, afterChange: () => void deliveries.deliverDue() });
  const pages = createStripePages({ state, engine, deliveries });

  // Trials and periods also end as real time passes, including while the stack was stopped.
  const runDue = () =>
    state
      .serialized(() => engine.runDue())
      .then(() => deliveries.deliverDue())
      .catch((error: unknown) => options.log(`Local Stripe: ${(error as Error).message}`));
  void runDue();
  const dueTimer = setInterval(runDue, 60_000);
  dueTimer.unref();

  return {
    handler: (request) => (new URL(request.url).pathname.startsWith('/v1/') ? api(request) : pages(request)),
    async close() {
      clearInterval(dueTimer);
      await state.serialized(async () => undefined);
      await deliveries.close();
    },
  };
}
