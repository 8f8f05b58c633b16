import { useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import { buttonClasses } from '../../../components/ui/button.tsx';
import { useDocumentTitle } from '../../../hooks/use-document-title.ts';
import { BILLING_TEXTS } from '../../../lib/billing-texts.ts';
import { useGoToCustomerPortal } from '../api/open-customer-portal.ts';
import { BillingFunctionError } from '../api/function-error.ts';
import { MAIN_CONTENT_ID } from '../../../lib/constants.ts';

/** Our sentence for a portal that did not open: the function's code says why, never its own text. */
function portalFailureText(error: unknown): string {
  const T = BILLING_TEXTS.billing.toasts.portalFailed;
  const code = error instanceof BillingFunctionError ? error.code : null;
  if (code === 'no_billing_account') return T.noBillingAccount;
  if (code === 'not_authenticated') return T.signedOut;
  return T.description;
}

/**
 * /profile/billing-portal (guarded), the tab Manage Subscription opens: says it
 * is opening the portal, asks for a portal session once and goes there; if
 * that fails, says why in our words, with a way to try again and back to the profile.
 */
export function BillingPortalPage() {
  const T = BILLING_TEXTS.billing.portalPage;
  useDocumentTitle(T.documentTitle);
  const portal = useGoToCustomerPortal();
  const asked = useRef(false);
  const { mutate } = portal;

  useEffect(() => {
    // Once per page, StrictMode's second effect included: each ask makes a portal session.
    if (asked.current) return;
    asked.current = true;
    mutate();
  }, [mutate]);

  return (
    <main id={MAIN_CONTENT_ID} className="flex min-h-screen items-center justify-center bg-neutral-50 px-6 py-16">
      <div className="w-full max-w-sm rounded-2xl border border-neutral-200 bg-white p-6 text-center shadow-sm">
        {portal.isError ? (
          <div role="alert">
            <h1 className="text-lg font-semibold text-neutral-950">{BILLING_TEXTS.billing.toasts.portalFailed.title}</h1>
            <p className="mt-2 text-sm text-neutral-600" data-testid="portal-failure">
              {portalFailureText(portal.error)}
            </p>
            <div className="mt-5 flex flex-col gap-2">
              <button type="button" className={buttonClasses('primary', 'md', 'w-full')} onClick={() => mutate()}>
                {T.tryAgain}
              </button>
              <Link to="/profile" className={buttonClasses('ghost', 'md', 'w-full')}>
                {T.backToProfile}
              </Link>
            </div>
          </div>
        ) : (
          <div role="status">
            <h1 className="text-lg font-semibold text-neutral-950">{T.opening}</h1>
            <p className="mt-2 text-sm text-neutral-600">{T.openingDetail}</p>
          </div>
        )}
      </div>
    </main>
  );
}
