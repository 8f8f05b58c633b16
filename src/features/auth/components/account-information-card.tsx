import type { User } from '@supabase/supabase-js';
import { formatDate } from '../../../lib/formatting.ts';
import { ACCOUNT_TEXTS } from '../../../lib/account-texts.ts';
import { ProfileCard } from './profile-card.tsx';

/** The account's id, creation date and whether its email is confirmed. */
export function AccountInformationCard({ user }: { user: User }) {
  const T = ACCOUNT_TEXTS.profile.account;
  const rows: Array<[string, string]> = [
    [T.userId, user.id],
    [T.created, formatDate(user.created_at)],
    [T.emailConfirmed, user.email_confirmed_at ? T.yes : T.no],
  ];
  return (
    <ProfileCard title={T.title}>
      <dl className="divide-y divide-neutral-100 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="flex flex-col gap-0.5 py-2.5 first:pt-0 last:pb-0 sm:flex-row sm:items-center sm:justify-between sm:gap-4">
            <dt className="text-neutral-500">{label}</dt>
            <dd className="font-medium break-all text-neutral-900 sm:text-right">{value}</dd>
          </div>
        ))}
      </dl>
    </ProfileCard>
  );
}
