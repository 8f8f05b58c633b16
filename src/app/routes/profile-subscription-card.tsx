import { ACCOUNT_TEXTS } from '../../lib/account-texts.ts';
import { ProfileCard } from '../../features/auth/components/profile-card.tsx';
import { SubscriptionPlan } from '../../features/billing/components/subscription-plan.tsx';

/** Subscription Plan on /profile: the plan, its dates, the cancellation notice, and managing, cancelling or upgrading. */
export function ProfileSubscriptionCard() {
  const T = ACCOUNT_TEXTS.profile.subscription;
  return (
    <ProfileCard title={T.title} description={T.description}>
      <SubscriptionPlan />
    </ProfileCard>
  );
}
