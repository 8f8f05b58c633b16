import { useEffect, useRef } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { buttonClasses } from '../../components/ui/button.tsx';
import { CheckIcon } from '../../components/ui/icons.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { useSession } from '../../lib/auth-session.tsx';
import { ACCOUNT_TEXTS } from '../../lib/account-texts.ts';
import { toast } from '../../lib/toast.ts';
import { AuthCardLayout } from '../../features/auth/components/auth-card-layout.tsx';
import { linkErrorOf } from '../../features/auth/components/reset-password-form.tsx';
import { redirectTargetFrom } from '../../features/auth/hooks/use-redirect-target.ts';

/**
 * /auth/confirmed: where sign-up and email-change confirmation links land. The
 * link has confirmed the address before it got here; in the browser that asked
 * for it the client also exchanges the link's code for a session and the page
 * goes on to `next`. In any other browser (no PKCE verifier there) it says the
 * email is confirmed and offers sign-in, never the library's error.
 */
export function EmailConfirmedPage() {
  const T = ACCOUNT_TEXTS.account.emailConfirmed;
  useDocumentTitle(T.documentTitle);
  const navigate = useNavigate();
  const location = useLocation();
  const { session, loading } = useSession();
  // The URL as the link left it: the client rewrites it once it has read the code.
  const landing = useRef({ search: location.search, hash: location.hash });
  const failed = linkErrorOf(landing.current) !== null;
  const next = redirectTargetFrom(landing.current.search);

  useEffect(() => {
    if (loading || failed || !session) return;
    toast.success(T.toast);
    navigate(next, { replace: true });
  }, [loading, failed, session, navigate, next, T.toast]);

  if (failed) {
    return (
      <AuthCardLayout title={T.failedTitle} subtitle={T.failedBody}>
        <div role="alert" className="text-center">
          <Link to={`/auth/signin?next=${encodeURIComponent(next)}`} className={buttonClasses('primary', 'lg', 'w-full')}>
            {T.signIn}
          </Link>
        </div>
      </AuthCardLayout>
    );
  }
  if (loading || session) {
    return (
      <AuthCardLayout title={T.title}>
        <p role="status" className="py-6 text-center text-[15px] text-neutral-500">
          {T.checking}
        </p>
      </AuthCardLayout>
    );
  }
  return (
    <AuthCardLayout title={T.title}>
      <div role="status" className="text-center">
        <span className="mx-auto mb-4 flex h-12 w-12 items-center justify-center rounded-full bg-emerald-50 text-emerald-600">
          <CheckIcon className="h-6 w-6" />
        </span>
        <p className="text-[15px] text-neutral-600" data-testid="email-confirmed">
          {T.signInToContinue}
        </p>
        <Link to={`/auth/signin?next=${encodeURIComponent(next)}`} className={buttonClasses('primary', 'lg', 'mt-6 w-full')}>
          {T.signIn}
        </Link>
      </div>
    </AuthCardLayout>
  );
}
