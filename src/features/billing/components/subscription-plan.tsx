import { useState } from 'react';
import { toast } from '../../../lib/toast.ts';
import { Button } from '../../../components/ui/button.tsx';
import { useSession } from '../../../lib/auth-session.tsx';
import { formatDate, formatPrice } from '../../../lib/formatting.ts';
import { BILLING_TEXTS } from '../../../lib/billing-texts.ts';
import { ACCOUNT_TEXTS } from '../../../lib/account-texts.ts';
import { periodEndIso } from '../api/check-subscription.ts';
import { useCancelSubscription } from '../api/cancel-subscription.ts';
import { openCustomerPortalInNewTab } from '../api/open-customer-portal.ts';
import { useCancelNotice } from '../hooks/use-cancel-notice.ts';
import { useEntitlement } from '../hooks/use-entitlement.tsx';
import { CancelCountdownDialog } from './cancel-countdown-dialog.tsx';
import { CancelSubscriptionDialog } from './cancel-subscription-dialog.tsx';
import { UpgradePlanButton } from './upgrade-plan-button.tsx';

const FREE_TIERS = new Set(['Free', 'Free Trial']);

/**
 * The plan as check-subscription reports it: tier, 'Expires' or 'Next Billing',
 * the cancellation notice, Manage Subscription (Stripe's portal, in a new tab)
 * and cancelling, or Upgrade Plan for those without a subscription.
 */
export function SubscriptionPlan() {
  const T = ACCOUNT_TEXTS.profile.subscription;
  const B = BILLING_TEXTS.billing;
  const { user } = useSession();
  const entitlement = useEntitlement();
  const { notice, remember, status } = useCancelNotice();
  const cancel = useCancelSubscription();
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [countdown, setCountdown] = useState<'scheduled' | 'immediate' | null>(null);

  const plan = status.data;
  // Without the plan's details (still loading, or the check failed) a user without access is on Free.
  const tier = plan?.subscription_tier ?? (entitlement.entitlementLoaded && !entitlement.isSubscribed && !status.isPending ? T.free : null);
  const end = plan ? (plan.subscription_end ?? periodEndIso(plan.current_period_end ?? plan.period_end)) : null;
  const endsWithoutRenewal = tier !== null && (FREE_TIERS.has(tier) || plan?.cancel_at_period_end === true);
  const manageable = plan?.subscribed === true && tier !== null && tier !== T.free;
  // During a paid plan's trial: the plan bought, the trial's end, then the first charge (or that none will come).
  const trialEnd = plan?.trial_end ?? null;
  const shownTier = trialEnd && plan?.plan ? plan.plan : tier;
  const nextCharge = plan?.next_charge && plan.next_charge.currency.toLowerCase() === 'eur' ? plan.next_charge : null;

  const cancelSubscription = (immediate: boolean) =>
    cancel.mutate(
      { immediate },
      {
        onSuccess: ({ accessEnds }) => {
          const endDate = accessEnds === null ? end : new Date(accessEnds * 1000).toISOString();
          remember({ scheduled: !immediate, endDate, immediate });
          setConfirmOpen(false);
          if (immediate) toast.success(B.toasts.cancelled.title, { description: B.toasts.cancelled.description });
          else toast.success(B.toasts.cancellationScheduled.title, { description: endDate ? B.toasts.cancellationScheduled.description(formatDate(endDate)) : undefined });
          setCountdown(immediate ? 'immediate' : 'scheduled');
        },
        onError: () => toast.error(B.toasts.cancellationFailed.title, { description: B.toasts.cancellationFailed.description }),
      },
    );

  if (!user) return null;
  return (
    <div className="space-y-4">
      {notice && (
        <p role="status" data-testid="cancel-notice" className="rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          {notice.immediate || !notice.endDate ? B.notice.immediate : B.notice.scheduled(formatDate(notice.endDate))}
        </p>
      )}
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <p className="text-sm text-neutral-500">{T.currentPlan}</p>
          <p className="mt-0.5 flex items-center gap-2 text-xl font-semibold tracking-tight text-neutral-950">
            <span data-testid="current-plan">{shownTier ?? (status.isError ? '—' : T.loading)}</span>
            {trialEnd && plan?.plan && (
              <span className="rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-semibold text-emerald-700" data-testid="plan-trial-badge">
                {T.trialBadge}
              </span>
            )}
          </p>
          {status.isError && entitlement.isSubscribed && <p className="mt-1 text-sm text-neutral-500">{B.planUnavailable}</p>}
          {trialEnd && plan?.plan ? (
            <p className="mt-1 text-sm text-neutral-500" data-testid="plan-date">
              {T.trialEnds}: {formatDate(trialEnd)}
            </p>
          ) : (
            end &&
            tier !== T.free && (
              <p className="mt-1 text-sm text-neutral-500" data-testid="plan-date">
                {endsWithoutRenewal ? T.expires : T.nextBilling}: {formatDate(end)}
              </p>
            )
          )}
          {nextCharge && !plan?.cancel_at_period_end && (
            <p className="mt-1 text-sm text-neutral-700" data-testid="plan-next-charge">
              {T.nextCharge(formatPrice(nextCharge.amount), formatDate(nextCharge.at))}
            </p>
          )}
          {plan?.cancel_at_period_end && end && (
            <p className="mt-1 text-sm text-neutral-700" data-testid="plan-next-charge">
              {T.noCharge(formatDate(end))}
            </p>
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          {manageable && (
            <>
              <Button variant="outline" onClick={openCustomerPortalInNewTab}>
                {B.manage}
              </Button>
              <Button variant="ghost" className="text-red-700 hover:bg-red-50 hover:text-red-800" onClick={() => setConfirmOpen(true)}>
                {B.cancel}
              </Button>
            </>
          )}
          <UpgradePlanButton size="md" />
        </div>
      </div>
      <CancelSubscriptionDialog
        open={confirmOpen}
        onOpenChange={setConfirmOpen}
        periodEnd={end ? formatDate(end) : null}
        alreadyScheduled={plan?.cancel_at_period_end === true}
        pending={cancel.isPending}
        onCancel={cancelSubscription}
      />
      <CancelCountdownDialog kind={countdown} onStay={() => setCountdown(null)} />
    </div>
  );
}
