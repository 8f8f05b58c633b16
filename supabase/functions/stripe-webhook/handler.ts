import { billingServices } from '../_shared/billing-services.ts';
import type { BillingStore } from '../_shared/billing-store.ts';
import { corsHeaders, errorResponse, jsonResponse } from '../_shared/http.ts';
import { WEBHOOK_TOLERANCE_SECONDS } from '../_shared/local-stripe-defaults.ts';
import { Stripe, webCryptoProvider } from '../_shared/stripe-client.ts';
import { handledEvents, isHandledEvent } from './handled-events.ts';
import type { WebhookStripe } from './webhook-services.ts';

export interface WebhookDependencies {
  webhookSecret: string;
  stripe: WebhookStripe;
  store: Pick<BillingStore, 'isEventProcessed' | 'userIdOfCustomer' | 'applyStripeEvent' | 'recordSubscriptionHolders'>;
}

const defaultDependencies = (): WebhookDependencies => {
  const services = billingServices();
  return { webhookSecret: services.env.webhookSecret, stripe: services.stripe, store: services.store };
};

function isEventShaped(value: unknown): value is Stripe.Event {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { id, type } = value as { id?: unknown; type?: unknown };
  return typeof id === 'string' && typeof type === 'string';
}

/** Verifies the signature over the exact bytes Stripe sent; a re-serialised body would not match. */
async function verifiedEvent(rawBody: string, signature: string, secret: string): Promise<{ ok: true; event: Stripe.Event } | { ok: false; response: Response }> {
  try {
    const event: unknown = await Stripe.webhooks.constructEventAsync(rawBody, signature, secret, WEBHOOK_TOLERANCE_SECONDS, webCryptoProvider);
    // Signed JSON that is not an event (null, a number, an array, an object without a string id and type) is refused like any other bad body.
    if (!isEventShaped(event)) return { ok: false, response: errorResponse('invalid_body', 'The body must be a JSON Stripe event') };
    return { ok: true, event };
  } catch (error) {
    if (!(error instanceof Stripe.errors.StripeSignatureVerificationError)) {
      return { ok: false, response: errorResponse('invalid_body', 'The body must be a JSON Stripe event') };
    }
    const tooOld = /tolerance zone/i.test(error.message);
    return {
      ok: false,
      response: errorResponse(
        'invalid_signature',
        tooOld
          ? `The Stripe-Signature timestamp is more than ${WEBHOOK_TOLERANCE_SECONDS} seconds old`
          : 'The Stripe-Signature does not match the payload',
      ),
    };
  }
}

/**
 * Stripe's webhook (called without a Supabase JWT, verify_jwt = false): a
 * signed event of an allowed type is applied once, whatever order and however
 * often it arrives. Answers 200 when done or ignored, 400 for a bad signature,
 * 500 when processing failed so that Stripe delivers it again.
 */
export function createStripeWebhookHandler(dependencies: () => WebhookDependencies = defaultDependencies) {
  return async (request: Request): Promise<Response> => {
    if (request.method === 'OPTIONS') return new Response('ok', { headers: corsHeaders });
    if (request.method !== 'POST') return errorResponse('method_not_allowed', 'Use POST');
    const signature = request.headers.get('stripe-signature');
    if (!signature) return errorResponse('invalid_signature', 'Missing Stripe-Signature header');
    const deps = dependencies();
    const verified = await verifiedEvent(await request.text(), signature, deps.webhookSecret);
    if (!verified.ok) return verified.response;
    const { event } = verified;
    if (!isHandledEvent(event.type)) return jsonResponse({ received: true, outcome: 'ignored' });
    try {
      // Cheap early answer for a redelivery; apply_stripe_event is what makes it safe under races.
      if (await deps.store.isEventProcessed(event.id)) return jsonResponse({ received: true, outcome: 'duplicate' });
      const outcome = await handledEvents[event.type]!(event, { stripe: deps.stripe, store: deps.store });
      return jsonResponse({ received: true, outcome });
    } catch (error) {
      console.error(`stripe-webhook: ${event.type} ${event.id} failed:`, error);
      return errorResponse('internal', 'Processing the event failed; it will be delivered again');
    }
  };
}

export const handler = createStripeWebhookHandler();
