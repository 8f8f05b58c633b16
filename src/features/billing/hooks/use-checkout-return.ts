import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router-dom';
import { useEntitlement } from './use-entitlement.tsx';

/** The checkout sessions whose success was already shown, newest last (local storage: once per browser). */
export const CHECKOUT_SEEN_STORAGE_KEY = 'obyect_checkout_seen';
const SEEN_KEPT = 20;
/** Stripe's webhook may land after the browser returns: access is asked again this often, this many times. */
export const ACCESS_POLL_MS = 2000;
export const ACCESS_POLLS = 15;

function seenSessions(): string[] {
  try {
    const stored: unknown = JSON.parse(window.localStorage.getItem(CHECKOUT_SEEN_STORAGE_KEY) ?? '[]');
    return Array.isArray(stored) ? stored.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    // A damaged list is started again.
    return [];
  }
}

function markSeen(sessionId: string): void {
  try {
    const seen = seenSessions().filter((id) => id !== sessionId);
    window.localStorage.setItem(CHECKOUT_SEEN_STORAGE_KEY, JSON.stringify([...seen, sessionId].slice(-SEEN_KEPT)));
  } catch {
    // Storage full or blocked: the dialog still shows this time.
  }
}

/**
 * The return from Stripe Checkout (`?checkout=success&session_id=…` or
 * `?checkout=cancelled`): the query is removed from the address, and for a
 * success not shown before the entitlement is asked again until the
 * subscription has arrived (Stripe's webhook may come later than the
 * browser); only then does 'Payment Successful' open. The address alone
 * grants and announces nothing.
 */
export function useCheckoutReturn(): { successOpen: boolean; setSuccessOpen: (open: boolean) => void } {
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { entitlementLoaded, isAuthenticated, hasValidAccess } = useEntitlement();
  const [successOpen, setSuccessOpen] = useState(false);
  const [awaitedSession, setAwaitedSession] = useState<string | null>(null);
  const [pollsLeft, setPollsLeft] = useState(0);

  useEffect(() => {
    const params = new URLSearchParams(location.search);
    const outcome = params.get('checkout');
    if (outcome === null) return;
    const sessionId = params.get('session_id');
    if (outcome === 'success' && sessionId && !seenSessions().includes(sessionId)) {
      setAwaitedSession(sessionId);
      setPollsLeft(ACCESS_POLLS);
      void queryClient.invalidateQueries({ queryKey: ['entitlement'] });
      void queryClient.invalidateQueries({ queryKey: ['subscription'] });
    }
    params.delete('checkout');
    params.delete('session_id');
    const search = params.toString();
    navigate({ pathname: location.pathname, search: search ? `?${search}` : '', hash: location.hash }, { replace: true, state: location.state });
  }, [location, navigate, queryClient]);

  useEffect(() => {
    if (awaitedSession === null || !entitlementLoaded || !isAuthenticated) return;
    if (hasValidAccess) {
      markSeen(awaitedSession);
      setAwaitedSession(null);
      setPollsLeft(0);
      setSuccessOpen(true);
      return;
    }
    if (pollsLeft === 0) {
      setAwaitedSession(null);
      return;
    }
    const timer = window.setTimeout(() => {
      setPollsLeft((left) => Math.max(0, left - 1));
      void queryClient.invalidateQueries({ queryKey: ['entitlement'] });
      void queryClient.invalidateQueries({ queryKey: ['subscription'] });
    }, ACCESS_POLL_MS);
    return () => window.clearTimeout(timer);
  }, [awaitedSession, pollsLeft, entitlementLoaded, isAuthenticated, hasValidAccess, queryClient]);

  return { successOpen, setSuccessOpen };
}
