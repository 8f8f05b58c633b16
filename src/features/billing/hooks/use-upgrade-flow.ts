import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useSession } from '../../../lib/auth-session.tsx';
import { signInWithNextPath } from '../../../lib/auth-redirects.ts';
import { useEntitlement } from './use-entitlement.tsx';
import { usePricingDialog } from './use-pricing-dialog.tsx';

/** The upgrade flow: anonymous visitors sign in first (coming back here), signed-in users see the plans. */
export function useUpgradeFlow(): () => void {
  const { session } = useSession();
  const { openPricing } = usePricingDialog();
  const navigate = useNavigate();
  const location = useLocation();
  return useCallback(() => {
    if (session) openPricing();
    else navigate(signInWithNextPath(location));
  }, [session, openPricing, navigate, location]);
}

/** Whether to offer Upgrade Plan: only once entitlement is loaded, for a signed-in user without a subscription. */
export function useShowUpgradePlan(): boolean {
  const { entitlementLoaded, isAuthenticated, isSubscribed } = useEntitlement();
  return entitlementLoaded && isAuthenticated && !isSubscribed;
}
