import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useSession } from '../../../lib/auth-session.tsx';
import { guardRedirectFor } from '../hooks/guard-redirect.ts';

/** Applies guardRedirectFor to the current page, on load and on every sign-in or sign-out. */
export function AuthRouteGuard({ children }: { children: ReactNode }) {
  const location = useLocation();
  const { session, loading } = useSession();
  // Until the session is known, a page whose guard depends on it shows nothing rather than flash.
  const dependsOnSession = guardRedirectFor(location, false) !== null || guardRedirectFor(location, true) !== null;
  if (loading && dependsOnSession) return null;
  const target = guardRedirectFor(location, session !== null);
  if (target) return <Navigate to={target} replace />;
  return <>{children}</>;
}
