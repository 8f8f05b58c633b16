import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { toast } from '../../../lib/toast.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogContent } from '../../../components/ui/dialog.tsx';
import { CheckIcon } from '../../../components/ui/icons.tsx';
import { useSession } from '../../../lib/auth-session.tsx';
import { signInWithNextPath } from '../../../lib/auth-redirects.ts';
import { COUPON_PREVIEW_DEBOUNCE_MS, PRICES } from '../../../lib/constants.ts';
import { useDebouncedValue } from '../../../hooks/use-debounced-value.ts';
import { formatPrice } from '../../../lib/formatting.ts';
import { BILLING_TEXTS } from '../../../lib/billing-texts.ts';
import { SHELL_TEXTS } from '../../../lib/shell-texts.ts';
import { useSubscriptionStatus } from '../api/check-subscription.ts';
import { CheckoutError, useCreateCheckout, type BillingPeriod } from '../api/create-checkout.ts';
import { priceAfterCoupon, useCouponPreview, type CouponTerms } from '../api/preview-coupon.ts';
import { useEntitlement } from '../hooks/use-entitlement.tsx';
import { pageNavigation } from '../hooks/page-navigation.ts';

interface PricingDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * What the dialog offers: the 7-day trial (anonymous visitors, and accounts the
 * server still gives it to), a plain subscription (accounts that had their
 * trial, or when the server could not say), or nothing yet while it asks.
 */
type Offer = 'trial' | 'plain' | 'checking';

const offerTexts = {
  trial: {
    subtitle: BILLING_TEXTS.pricing.subtitle,
    billedMonthly: BILLING_TEXTS.pricing.billedMonthly,
    action: BILLING_TEXTS.pricing.startTrial,
    footnote: BILLING_TEXTS.pricing.noChargeToday,
    agreement: BILLING_TEXTS.pricing.agreement,
  },
  plain: {
    subtitle: BILLING_TEXTS.pricing.subtitleWithoutTrial,
    billedMonthly: BILLING_TEXTS.pricing.billedMonthlyWithoutTrial,
    action: BILLING_TEXTS.pricing.subscribeNow,
    footnote: BILLING_TEXTS.pricing.chargedToday,
    agreement: BILLING_TEXTS.pricing.agreementWithoutTrial,
  },
} as const;

const C = BILLING_TEXTS.pricing.coupon;

/** '20% off every payment', '€5,00 off your first 3 months'. */
function discountText(terms: CouponTerms): string {
  const off = terms.percent_off !== null ? C.percentOff(terms.percent_off) : C.amountOff(formatPrice(terms.amount_off ?? 0));
  const when = terms.duration === 'repeating' ? C.duration.repeating(terms.duration_in_months ?? 1) : C.duration[terms.duration];
  return `${off} ${when}`;
}

/**
 * The plans, with the 7-day trial only for those who may still have it (the
 * server decides: check-subscription's trial_eligible, and create-checkout again).
 * Opened and closed by its parent; closes itself once the viewer is signed in
 * with valid access.
 */
export function PricingDialog({ open, onOpenChange }: PricingDialogProps) {
  const [period, setPeriod] = useState<BillingPeriod>('monthly');
  const [couponCode, setCouponCode] = useState('');
  // The code checkout refused (it is said next to the field, not in a toast).
  const [refusedCoupon, setRefusedCoupon] = useState<string | null>(null);
  const { session } = useSession();
  const { isAuthenticated, hasValidAccess } = useEntitlement();
  const navigate = useNavigate();
  const location = useLocation();
  const checkout = useCreateCheckout();
  const status = useSubscriptionStatus(open && session ? session.user.id : null);
  // The typed coupon, looked up once typing pauses (signed in: checkout needs an account anyway).
  const couponToPreview = useDebouncedValue(couponCode.trim(), COUPON_PREVIEW_DEBOUNCE_MS);
  const couponPreview = useCouponPreview(couponToPreview, open && session !== null);
  const couponSettled = couponToPreview === couponCode.trim();
  const couponTerms = couponSettled && couponPreview.data?.valid ? couponPreview.data.terms : null;
  const offer: Offer = !session ? 'trial' : status.data ? (status.data.trial_eligible ? 'trial' : 'plain') : status.isError ? 'plain' : 'checking';
  const texts = offerTexts[offer === 'trial' ? 'trial' : 'plain'];

  useEffect(() => {
    if (open && isAuthenticated && hasValidAccess) onOpenChange(false);
  }, [open, isAuthenticated, hasValidAccess, onOpenChange]);

  const startCheckout = () => {
    if (!session) {
      onOpenChange(false);
      navigate(signInWithNextPath(location));
      return;
    }
    checkout.mutate(
      { period, couponCode, withTrial: offer === 'trial' },
      {
        onSuccess: (url) => pageNavigation.assign(url),
        onError: (error) => {
          if (error instanceof CheckoutError && error.code === 'invalid_coupon') {
            setRefusedCoupon(couponCode.trim());
            return;
          }
          toast.error(SHELL_TEXTS.toasts.checkoutFailed.title, {
            description: error instanceof CheckoutError ? error.message : SHELL_TEXTS.toasts.checkoutFailed.description,
          });
        },
      },
    );
  };

  const monthly = PRICES.monthly;
  const annual = PRICES.annual;
  const listPerMonth = period === 'monthly' ? monthly.perMonthCents : annual.perMonthCents;
  const perPeriodAfterCoupon = couponTerms ? priceAfterCoupon(period === 'monthly' ? monthly.perPeriodCents : annual.perPeriodCents, couponTerms) : null;
  const perMonthAfterCoupon = perPeriodAfterCoupon === null ? null : period === 'monthly' ? perPeriodAfterCoupon : Math.round(perPeriodAfterCoupon / 12);
  const couponLine = !session || couponCode.trim() === ''
    ? null
    : refusedCoupon === couponCode.trim()
      ? { text: C.invalid, tone: 'text-red-600' }
    : !couponSettled || couponPreview.isFetching
      ? { text: C.checking, tone: 'text-neutral-500' }
      : couponTerms
        ? { text: C.applied(couponTerms.code, discountText(couponTerms)), tone: 'text-emerald-700' }
        : couponPreview.data?.valid === false
          ? { text: couponPreview.data.reason === 'too_many' ? C.tooMany : C.invalid, tone: 'text-red-600' }
          : couponPreview.isError
            ? { text: C.unavailable, tone: 'text-neutral-500' }
            : null;
  const pending = checkout.isPending;
  const label = pending ? BILLING_TEXTS.pricing.redirecting : offer === 'checking' ? BILLING_TEXTS.pricing.checkingOffer : texts.action;

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title={BILLING_TEXTS.pricing.title} description={texts.subtitle} className="max-w-[440px]">
        <div role="radiogroup" aria-label={BILLING_TEXTS.pricing.periodLabel} className="mt-5 grid grid-cols-2 rounded-xl bg-neutral-100 p-1 text-sm font-medium">
          {(['monthly', 'annual'] as const).map((option) => (
            <button
              key={option}
              type="button"
              role="radio"
              aria-checked={period === option}
              onClick={() => setPeriod(option)}
              className={`flex items-center justify-center gap-1.5 rounded-lg py-2 transition-colors ${
                period === option ? 'bg-white text-neutral-950 shadow-sm' : 'text-neutral-600 hover:text-neutral-900'
              }`}
            >
              {option === 'monthly' ? BILLING_TEXTS.pricing.monthly : BILLING_TEXTS.pricing.annual}
              {option === 'annual' && (
                <span className="rounded-full bg-emerald-100 px-1.5 py-0.5 text-[11px] font-semibold text-emerald-700">{annual.savingLabel}</span>
              )}
            </button>
          ))}
        </div>

        <div className="mt-5 rounded-2xl border border-neutral-200 p-5">
          <p className="flex flex-wrap items-baseline gap-x-1.5">
            <span data-testid="price" className="text-4xl font-semibold tracking-tight text-neutral-950">
              {formatPrice(perMonthAfterCoupon ?? listPerMonth)}
            </span>
            {perMonthAfterCoupon !== null && (
              <s data-testid="price-before-coupon" className="text-lg text-neutral-500">
                <span className="sr-only">{C.insteadOf} </span>
                {formatPrice(listPerMonth)}
              </s>
            )}
            <span className="text-sm text-neutral-500">{BILLING_TEXTS.pricing.perMonth}</span>
          </p>
          <p className="mt-1 min-h-5 text-sm text-neutral-500">
            {period === 'annual' ? (
              <>
                {perPeriodAfterCoupon !== null ? (
                  // Longer with the coupon: the saving goes on a line of its own rather than breaking inside.
                  <>
                    {C.billedAnnuallyInsteadOf(formatPrice(perPeriodAfterCoupon), formatPrice(annual.perPeriodCents))}
                    <br />
                  </>
                ) : (
                  <>{BILLING_TEXTS.pricing.billedAnnually(formatPrice(annual.perPeriodCents))} · </>
                )}
                <span className="font-medium whitespace-nowrap text-emerald-700">{BILLING_TEXTS.pricing.saving(formatPrice(annual.savingCents))}</span>
              </>
            ) : (
              texts.billedMonthly
            )}
          </p>
          <ul className="mt-4 space-y-2.5">
            {BILLING_TEXTS.pricing.features.map((feature) => (
              <li key={feature} className="flex items-center gap-2.5 text-sm text-neutral-800">
                <span className="inline-flex h-5 w-5 items-center justify-center rounded-full bg-neutral-950 text-white">
                  <CheckIcon className="h-3 w-3" strokeWidth={3} />
                </span>
                {feature}
              </li>
            ))}
          </ul>
        </div>

        <label className="mt-4 block text-sm font-medium text-neutral-800">
          {BILLING_TEXTS.pricing.couponLabel}
          <input
            value={couponCode}
            onChange={(event) => setCouponCode(event.target.value)}
            placeholder={BILLING_TEXTS.pricing.couponPlaceholder}
            autoComplete="off"
            aria-describedby="coupon-status"
            className="mt-1.5 h-10 w-full rounded-xl border border-neutral-200 px-3 text-sm font-normal placeholder:text-neutral-400 focus:border-neutral-950 focus:outline-none"
          />
        </label>
        <p id="coupon-status" data-testid="coupon-status" aria-live="polite" className={couponLine ? `mt-1.5 text-sm ${couponLine.tone}` : undefined}>
          {couponLine?.text}
        </p>

        {status.data && !status.data.trial_eligible && (
          <p data-testid="trial-used" className="mt-4 text-sm text-neutral-600">
            {BILLING_TEXTS.pricing.trialUsed}
          </p>
        )}
        <Button size="lg" className={`${status.data && !status.data.trial_eligible ? 'mt-2' : 'mt-4'} w-full`} disabled={pending || offer === 'checking'} aria-busy={offer === 'checking'} onClick={startCheckout}>
          {label}
        </Button>
        <p className="mt-3 text-center text-xs text-neutral-500">
          {texts.footnote}
          <br />
          {texts.agreement}{' '}
          <a href="/terms" target="_blank" rel="noopener noreferrer" className="underline hover:text-neutral-900">
            {BILLING_TEXTS.pricing.terms}
          </a>{' '}
          {BILLING_TEXTS.pricing.and}{' '}
          <a href="/privacy" target="_blank" rel="noopener noreferrer" className="underline hover:text-neutral-900">
            {BILLING_TEXTS.pricing.privacy}
          </a>
          .
        </p>
      </DialogContent>
    </Dialog>
  );
}
