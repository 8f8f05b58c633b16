import { createContext, useContext, useEffect, useMemo, useRef, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { AD_LISTS_KEY } from '../../../lib/ad-list-cache.ts';
import { useSession } from '../../../lib/auth-session.tsx';
import { supabase } from '../../../lib/supabase-client.ts';
import { useValidAccess } from '../api/get-valid-access.ts';

/** The derived entitlement state of the spec (section 3), decided by the server. */
export interface Entitlement {
  isAuthenticated: boolean;
  isSubscribed: boolean;
  subscriptionTier: string | null;
  subscriptionEnd: string | null;
  hasValidAccess: boolean;
  /** False until the first check for the current session has finished. */
  entitlementLoaded: boolean;
}

const EntitlementContext = createContext<Entitlement | null>(null);

/**
 * Checks entitlement on start and again on every auth state change. Signed out:
 * no subscription, no access. A failed check: no subscription and no access.
 */
export function EntitlementProvider({ children }: { children: ReactNode }) {
  const { user, loading } = useSession();
  const userId = user?.id ?? null;
  const queryClient = useQueryClient();
  const access = useValidAccess(userId);

  useEffect(() => {
    const { data } = supabase.auth.onAuthStateChange((event) => {
      if (event === 'INITIAL_SESSION') return;
      // Deferred: supabase-js holds its auth lock while it notifies listeners.
      setTimeout(() => {
        void queryClient.invalidateQueries({ queryKey: ['entitlement'] });
        void queryClient.invalidateQueries({ queryKey: ['subscription'] });
      }, 0);
    });
    return () => data.subscription.unsubscribe();
  }, [queryClient]);

  useEffect(() => {
    if (access.error) console.error('Entitlement check failed', access.error);
  }, [access.error]);

  // The server decides per ad what is clear: when access starts or ends, every loaded list is asked again.
  const seenAccess = useRef<{ userId: string | null; access: boolean | undefined }>({ userId, access: undefined });
  const currentAccess = access.status === 'success' ? access.data : undefined;
  useEffect(() => {
    const seen = seenAccess.current;
    if (currentAccess === undefined) return;
    if (seen.userId === userId && seen.access !== undefined && seen.access !== currentAccess) {
      void queryClient.invalidateQueries({ queryKey: AD_LISTS_KEY });
    }
    seenAccess.current = { userId, access: currentAccess };
  }, [userId, currentAccess, queryClient]);

  const value = useMemo<Entitlement>(() => {
    if (loading) return { ...SIGNED_OUT, entitlementLoaded: false };
    if (!userId) return SIGNED_OUT;
    const hasValidAccess = access.status === 'success' && access.data === true;
    return {
      isAuthenticated: true,
      isSubscribed: hasValidAccess,
      subscriptionTier: null,
      subscriptionEnd: null,
      hasValidAccess,
      entitlementLoaded: access.isSuccess || access.isError,
    };
  }, [loading, userId, access.status, access.data, access.isSuccess, access.isError]);

  return <EntitlementContext.Provider value={value}>{children}</EntitlementContext.Provider>;
}

const SIGNED_OUT: Entitlement = {
  isAuthenticated: false,
  isSubscribed: false,
  subscriptionTier: null,
  subscriptionEnd: null,
  hasValidAccess: false,
  entitlementLoaded: true,
};

export function useEntitlement(): Entitlement {
  const value = useContext(EntitlementContext);
  if (!value) throw new Error('useEntitlement must be used inside EntitlementProvider');
  return value;
}
