import { createHmac } from 'node:crypto';
import { publicView, type StripeState } from './stripe-state.ts';
import type { EventObject } from './stripe-objects.ts';

/** Stripe's signature: `t=<seconds>,v1=<hex HMAC-SHA256 of "<t>.<payload>" keyed with the endpoint's secret>`. */
export function stripeSignature(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const signature = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${signature}`;
}

/** Retries wait 1 s, 2 s, 4 s ... up to an hour; after this many attempts a delivery is given up. */
const MAX_ATTEMPTS = 20;
const retryDelayMs = (attempts: number) => Math.min(1_000 * 2 ** Math.max(attempts - 1, 0), 3_600_000);

interface DueDelivery {
  id: string;
  event_id: string;
  url: string;
  attempts: number;
}

export interface WebhookDeliveries {
  /** Delivers what is due now; resolves when this pass is done. */
  deliverDue(): Promise<void>;
  /** Delivers until these events reached every endpoint or failed once, or the time is up. */
  settle(eventIds: string[], timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Sends each event to every webhook endpoint, signed like Stripe's, from a
 * queue in the database: failed deliveries are retried with growing delays,
 * and what was queued before a restart is delivered after it.
 */
export function createWebhookDeliveries(options: { state: StripeState; secret: string; log: (line: string) => void; pollMs?: number }): WebhookDeliveries {
  const { state } = options;
  let running: Promise<void> | null = null;
  let closed = false;

  async function deliver(delivery: DueDelivery): Promise<void> {
    const event = await state.get<EventObject>(delivery.event_id, 'event');
    let status: number | null = null;
    let failure: string | null = null;
    if (!event) {
      failure = 'event not found';
    } else {
      const payload = JSON.stringify(publicView(event), null, 2);
      try {
        const response = await fetch(delivery.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json; charset=utf-8',
            'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
            'stripe-signature': stripeSignature(payload, options.secret),
          },
          body: payload,
          signal: AbortSignal.timeout(30_000),
        });
        status = response.status;
        await response.arrayBuffer();
        if (!response.ok) failure = `HTTP ${response.status}`;
      } catch (error) {
        failure = (error as Error).message;
      }
    }
    const attempts = delivery.attempts + 1;
    if (failure === null) {
      await state.db.query('update stripe_local.deliveries set attempts = $2, delivered_at = now(), last_status = $3, last_error = null where id = $1', [
        delivery.id,
        attempts,
        status,
      ]);
      return;
    }
    const givesUp = attempts >= MAX_ATTEMPTS || !event;
    options.log(`Stripe webhook ${delivery.event_id} to ${delivery.url}: ${failure}${givesUp ? '; given up' : `; retry ${attempts + 1} later`}`);
    await state.db.query(
      `update stripe_local.deliveries
          set attempts = $2, last_status = $3, last_error = $4,
              next_attempt_at = now() + make_interval(secs => $5::double precision / 1000),
              failed_at = case when $6 then now() end
        where id = $1`,
      [delivery.id, attempts, status, failure, retryDelayMs(attempts), givesUp],
    );
  }

  async function pass(): Promise<void> {
    const { rows } = await state.db.query<DueDelivery>(
      `select id::text, event_id, url, attempts from stripe_local.deliveries
        where delivered_at is null and failed_at is null and next_attempt_at <= now()
        order by id limit 100`,
    );
    // In the order the events happened; a retried one may then arrive after later ones, as with Stripe.
    for (const delivery of rows) {
      if (closed) return;
      await deliver(delivery);
    }
  }

  const deliverDue = (): Promise<void> => {
    if (!running) {
      running = pass()
        .catch((error: unknown) => options.log(`Stripe webhooks: ${(error as Error).message}`))
        .finally(() => {
          running = null;
        });
    }
    return running;
  };

  const timer = setInterval(() => void deliverDue(), options.pollMs ?? 1_000);
  timer.unref();

  return {
    deliverDue,
    async settle(eventIds, timeoutMs = 20_000) {
      if (eventIds.length === 0) return;
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        await running;
        await deliverDue();
        const { rows } = await state.db.query<{ waiting: number }>(
          `select count(*)::int as waiting from stripe_local.deliveries
            where event_id = any($1::text[]) and delivered_at is null and failed_at is null and attempts = 0`,
          [eventIds],
        );
        if (rows[0]!.waiting === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async close() {
      closed = true;
      clearInterval(timer);
      await running;
    },
  };
}
