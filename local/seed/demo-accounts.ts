import { provisionUser } from '../auth/provision-user.ts';
import type { Database } from '../db/database.ts';
import { subscribeDemoAccount, type DemoStripe } from './demo-billing.ts';

/** The demo accounts `npm start` creates on first start; their passwords are printed. */
export const DEMO_ACCOUNTS = [
  { role: 'admin', email: 'admin@obyect.local', password: 'obyect-admin', fullName: 'Ada Admin' },
  { role: 'subscriber', email: 'subscriber@obyect.local', password: 'obyect-subscriber', fullName: 'Sam Subscriber' },
  { role: 'free', email: 'free@obyect.local', password: 'obyect-free', fullName: 'Frankie Free' },
] as const;

/**
 * Creates the demo accounts if missing: the admin gets the server-side admin
 * role, the free user nothing, and the subscriber an annual subscription valid
 * for a year. With the local Stripe endpoint (`stripe`: npm start) the
 * subscriber buys it there through checkout, as a real customer, so the portal
 * and cancelling work for them; without it (tests of the database alone) the
 * row is written as the Stripe webhook would write it.
 */
export async function seedDemoAccounts(db: Database, options: { stripe?: DemoStripe } = {}): Promise<void> {
  for (const account of DEMO_ACCOUNTS) {
    const { id, created } = await db.transaction(async (tx) => {
      const provisioned = await provisionUser(tx, { email: account.email, password: account.password, metadata: { full_name: account.fullName } });
      if (provisioned.created && account.role === 'admin') await tx.query('insert into public.admin_users (user_id) values ($1) on conflict do nothing', [provisioned.id]);
      return provisioned;
    });
    if (account.role !== 'subscriber') continue;
    // A subscriber seeded before the local Stripe endpoint knew them (or without it) becomes its customer on the next start.
    const { rows } = await db.query<{ placeholder: boolean; customer: boolean }>(
      `select exists (select 1 from public.subscriptions s where s.user_id = $1 and s.stripe_subscription_id = 'sub_demo_subscriber') as placeholder,
              exists (select 1 from public.billing_customers b where b.user_id = $1) as customer`,
      [id],
    );
    const { placeholder, customer } = rows[0]!;
    if (options.stripe && (created || (placeholder && !customer))) {
      await subscribeDemoAccount(db, options.stripe, { id, email: account.email, name: account.fullName });
      await db.query("delete from public.subscriptions where stripe_subscription_id = 'sub_demo_subscriber'");
    } else if (!options.stripe && created) {
      await db.query(
        `insert into public.subscriptions (user_id, stripe_customer_id, stripe_subscription_id, status, tier, price_id, current_period_end)
         values ($1, 'cus_demo_subscriber', 'sub_demo_subscriber', 'active', 'annual', 'price_demo_annual', now() + interval '1 year')
         on conflict (stripe_subscription_id) do nothing`,
        [id],
      );
    }
  }
}
