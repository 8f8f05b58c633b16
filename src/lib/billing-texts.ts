/**
 * The texts of the plans and the subscription (the pricing dialog, the account's plan, payment and cancelling), word
 * for word from the spec, kept apart from the texts every page needs (shell-texts.ts, library-texts.ts) so that the library's first load does not carry them:
 * the pricing dialog and the account page are loaded when opened.
 */
export const BILLING_TEXTS = {
  checkout: {
    // Checkout returns the browser only to the site's own addresses; this page was opened at another one.
    originNotAllowed: "Checkout can't return to the address this page was opened at. Open Obyect at its usual address and try again.",
  },
  pricing: {
    title: 'Unlock every winning ad',
    subtitle: 'Start your 7-day free trial. No charge today.',
    periodLabel: 'Billing period',
    monthly: 'Monthly',
    annual: 'Annual',
    perMonth: '/ month',
    perYear: '/ year',
    billedMonthly: 'Billed monthly after your free trial',
    billedAnnually: (amount: string) => `${amount} billed yearly`,
    saving: (amount: string) => `You save ${amount}`,
    features: [
      '500+ winning ads',
      '50+ viral brands',
      'Weekly updates with new ads',
      'The Black Friday board, free for members',
      'More features coming',
    ],
    couponLabel: 'Coupon code',
    couponPlaceholder: 'Optional',
    // What a typed coupon takes off, shown before checkout (checkout applies it again).
    coupon: {
      checking: 'Checking the coupon…',
      applied: (code: string, discount: string) => `${code} applied: ${discount}`,
      percentOff: (percent: number) => `${percent}% off`,
      amountOff: (amount: string) => `${amount} off`,
      duration: {
        once: 'your first payment',
        forever: 'every payment',
        repeating: (months: number) => (months === 1 ? 'your first month' : `your first ${months} months`),
      },
      invalid: 'This coupon code is not valid.',
      tooMany: 'Too many coupon codes tried. Please wait a few minutes, then try again.',
      unavailable: 'The coupon could not be checked right now. Checkout applies it if it is valid.',
      insteadOf: 'instead of',
      billedAnnuallyInsteadOf: (amount: string, before: string) => `${amount} billed yearly instead of ${before}`,
    },
    startTrial: 'Start 7-day free trial',
    redirecting: 'Redirecting…',
    noChargeToday: 'No charge today. Cancel anytime.',
    terms: 'Terms',
    privacy: 'Privacy',
    agreement: 'By starting your trial you agree to our',
    // For accounts that had their trial (it is given once): the same plans, without the trial's promises.
    checkingOffer: 'Checking your offer…',
    subscribeNow: 'Subscribe now',
    // Said above the button, so that a second trial is not refused silently.
    trialUsed: "You've used your free trial.",
    subtitleWithoutTrial: 'Full access to every winning ad, starting today.',
    billedMonthlyWithoutTrial: 'Billed monthly',
    chargedToday: 'Charged today. Cancel anytime.',
    agreementWithoutTrial: 'By subscribing you agree to our',
    and: 'and',
  },
  billing: {
    paymentSuccess: {
      title: 'Payment Successful',
      body: 'Thanks! Your purchase was successful. You now have full access.',
      action: 'Start exploring',
    },
    manage: 'Manage Subscription',
    planUnavailable: 'Your plan could not be loaded. Please try again later.',
    // The tab Manage Subscription opens, while it asks Stripe for the portal, or when it could not.
    portalPage: {
      documentTitle: 'Billing portal – Obyect',
      opening: 'Opening your billing portal…',
      openingDetail: 'Stripe’s page for your plan, invoices and payment method opens here in a moment.',
      tryAgain: 'Try again',
      backToProfile: 'Back to your profile',
    },
    cancel: 'Cancel Subscription',
    cancelDialog: {
      title: 'Cancel your subscription?',
      body: (date: string | null) =>
        date
          ? `Cancel at the end of the period to keep full access until ${date}, or cancel now to end access today.`
          : 'Cancel at the end of the period to keep full access until then, or cancel now to end access today.',
      atPeriodEnd: 'Cancel at period end',
      now: 'Cancel now',
      keep: 'Keep subscription',
    },
    countdown: {
      scheduledTitle: 'Cancellation scheduled',
      immediateTitle: 'Subscription cancelled',
      body: (seconds: number) => `This page refreshes in ${seconds} s to show your plan.`,
      refreshNow: 'Refresh now',
      stayHere: 'Stay here',
    },
    notice: {
      scheduled: (date: string) => `Your subscription is set to cancel on ${date}. You keep full access until then.`,
      immediate: 'Your subscription has been cancelled and your access has ended.',
    },
    toasts: {
      cancellationScheduled: { title: 'Cancellation scheduled', description: (date: string) => `You keep full access until ${date}.` },
      cancelled: { title: 'Subscription cancelled', description: 'Your access has ended.' },
      cancellationFailed: { title: 'Cancellation failed', description: 'Please try again.' },
      portalFailed: {
        title: 'Failed to open billing portal',
        description: 'Please try again.',
        noBillingAccount: 'You have no billing account yet. Start a subscription first.',
        signedOut: 'Your session has ended. Sign in again.',
      },
    },
  },
} as const;
