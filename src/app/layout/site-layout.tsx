import type { ReactNode } from 'react';
import { useSession } from '../../lib/auth-session.tsx';
import { AppShell } from './app-shell.tsx';
import { SiteFooter } from './site-footer.tsx';
import { SiteHeader } from './site-header.tsx';

interface SiteLayoutProps {
  children: ReactNode;
  /** Room at the bottom for a fixed bar, so it never covers the footer. */
  bottomInset?: boolean;
  /** A page's own control in the top bar, before Share (the library's feature-request link on phones). */
  headerAction?: ReactNode;
}

/** supabase-js keeps a session under sb-<project>-auth-token: its presence predicts a signed-in start. */
function hasStoredSession(): boolean {
  try {
    for (let index = 0; index < window.localStorage.length; index += 1) {
      const key = window.localStorage.key(index);
      if (key && /^sb-.+-auth-token$/.test(key)) return true;
    }
  } catch {
    // Storage can be unavailable (privacy modes): then nothing is predicted.
  }
  return false;
}

/** The plain layout: header, the page, footer. */
export function PlainLayout({ children, bottomInset = false, headerAction }: SiteLayoutProps) {
  return (
    <div className={`flex min-h-dvh flex-col bg-neutral-50 text-neutral-950 ${bottomInset ? 'pb-28 sm:pb-16' : ''}`}>
      <SiteHeader action={headerAction} />
      <div className="flex-1">{children}</div>
      <SiteFooter />
    </div>
  );
}

/**
 * The layout of every non-auth page: the app shell with the sidebar for
 * signed-in users, the plain layout with the top header for everyone else.
 * While the session is still being read, a stored one predicts the shell, so
 * a signed-in reload does not flash the plain layout.
 */
export function SiteLayout({ children, bottomInset = false, headerAction }: SiteLayoutProps) {
  const { session, loading } = useSession();
  const signedIn = session !== null || (loading && hasStoredSession());
  if (signedIn)
    return (
      <AppShell bottomInset={bottomInset} headerAction={headerAction}>
        {children}
      </AppShell>
    );
  return (
    <PlainLayout bottomInset={bottomInset} headerAction={headerAction}>
      {children}
    </PlainLayout>
  );
}
