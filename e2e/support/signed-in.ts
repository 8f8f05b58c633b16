import type { Page } from 'playwright-core';
import { provisionUser } from '../../local/auth/provision-user.ts';
import type { LocalStack } from '../../local/stack.ts';

export type Plan = 'free' | 'subscriber';

export interface SignedInUser {
  id: string;
  email: string;
}

/** A confirmed user; a subscriber gets an active subscription as the Stripe webhook would record it. */
export async function provisionAccount(stack: LocalStack, plan: Plan, email: string, password: string): Promise<SignedInUser> {
  const { id } = await provisionUser(stack.db, { email, password, metadata: { full_name: plan === 'subscriber' ? 'Sam Subscriber' : 'Frankie Free' } });
  if (plan === 'subscriber') {
    await stack.db.query(
      `insert into public.subscriptions (user_id, stripe_customer_id, stripe_subscription_id, status, tier, price_id, current_period_end)
       values ($1, $2, $3, 'active', 'annual', 'price_e2e_annual', now() + interval '1 year')`,
      [id, `cus_e2e_${id.slice(0, 8)}`, `sub_e2e_${id.slice(0, 8)}`],
    );
  }
  return { id, email };
}

/** supabase-js's default key for the session: sb-<first label of the API host>-auth-token. */
const sessionStorageKey = (stackUrl: string) => `sb-${new URL(stackUrl).hostname.split('.')[0]}-auth-token`;

/**
 * Signs the browser in as supabase-js would after a password sign-in: the
 * session from auth/v1/token sits in local storage before the SPA starts.
 */
export async function signIn(page: Page, stack: LocalStack, credentials: { email: string; password: string }): Promise<void> {
  const response = await fetch(`${stack.url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: stack.config.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  if (!response.ok) throw new Error(`Sign-in of ${credentials.email} failed: ${response.status} ${await response.text()}`);
  const session = await response.json();
  // Only when none is stored, so the SPA's own refreshes are not undone on the next navigation.
  await page.addInitScript(
    ({ key, value }) => {
      if (!window.localStorage.getItem(key)) window.localStorage.setItem(key, value);
    },
    { key: sessionStorageKey(stack.url), value: JSON.stringify(session) },
  );
}
