import { provisionUser } from '../auth/provision-user.ts';
import type { Database } from '../db/database.ts';

/** The demo accounts `npm start` creates on first start; their passwords are printed. */
export const DEMO_ACCOUNTS = [
  { role: 'admin', email: 'admin@obyect.local', password: 'obyect-admin', fullName: 'Ada Admin' },
  { role: 'subscriber', email: 'subscriber@obyect.local', password: 'obyect-subscriber', fullName: 'Sam Subscriber' },
  { role: 'free', email: 'free@obyect.local', password: 'obyect-free', fullName: 'Frankie Free' },
] as const;

/**
 * Creates the demo accounts if missing: the admin gets the server-side admin
 * role, the subscriber an annual subscription valid for a year (as the Stripe
 * webhook would record it), the free user nothing.
 */
export async function seedDemoAccounts(db: Database): Promise<void> {
  for (const account of DEMO_ACCOUNTS) {
    await db.transaction(async (tx) => {
      const { id, created } = await provisionUser(tx, { email: account.email, password: account.password, metadata: { full_name: account.fullName } });
      if (!created) return;
      if (account.role === 'admin') await tx.query('insert into public.admin_users (user_id) values ($1) on conflict do nothing', [id]);
      if (account.role === 'subscriber') {
        await tx.query(
          `insert into public.subscriptions (user_id, stripe_customer_id, stripe_subscription_id, status, tier, price_id, current_period_end)
           values ($1, 'cus_demo_subscriber', 'sub_demo_subscriber', 'active', 'annual', 'price_demo_annual', now() + interval '1 year')
           on conflict (stripe_subscription_id) do nothing`,
          [id],
        );
      }
    });
  }
}
