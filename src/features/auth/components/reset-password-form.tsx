import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { toast } from '../../../lib/toast.ts';
import { Button, buttonClasses } from '../../../components/ui/button.tsx';
import { CheckIcon } from '../../../components/ui/icons.tsx';
import { RESET_REDIRECT_MS } from '../../../lib/constants.ts';
import { ACCOUNT_TEXTS } from '../../../lib/account-texts.ts';
import { fieldErrorsOf, resetPasswordFormSchema, type FieldErrors } from '../api/auth-form-schemas.ts';
import { ensureRecoverySession } from '../api/exchange-recovery-code.ts';
import { finishPasswordRecovery } from '../api/update-account.ts';
import { AuthCardLayout } from './auth-card-layout.tsx';
import { FormError, FormField } from './form-field.tsx';
import { authErrorText } from '../api/auth-error-text.ts';

type ResetPasswordForm = { password: string; confirmPassword: string };

/** The failure an auth link reports in its hash or query (used or expired), if any. */
export function linkErrorOf({ search, hash }: { search: string; hash: string }): string | null {
  for (const params of [new URLSearchParams(hash.replace(/^#/, '')), new URLSearchParams(search)]) {
    if (params.has('error') || params.has('error_code') || params.has('error_description')) {
      // Our sentence for the link's error code, never the server's description.
      return authErrorText({ code: params.get('error_code') ?? 'otp_expired' }) ?? ACCOUNT_TEXTS.account.errors.linkExpired;
    }
  }
  return null;
}

type LinkState = { status: 'checking' } | { status: 'ready' } | { status: 'invalid'; detail: string | null } | { status: 'done' };

/**
 * A new password for the session of a recovery link. The link's code is
 * exchanged for that session; a used or expired link says so; no session
 * at all goes back to sign-in.
 */
export function ResetPasswordForm() {
  const T = ACCOUNT_TEXTS.account;
  const navigate = useNavigate();
  const location = useLocation();
  // The URL as the link left it: the client and the router may rewrite it while the session is set up.
  const landing = useRef({ search: location.search, hash: location.hash });
  const [link, setLink] = useState<LinkState>(() => {
    const detail = linkErrorOf(landing.current);
    return detail ? { status: 'invalid', detail } : { status: 'checking' };
  });
  const [form, setForm] = useState<ResetPasswordForm>({ password: '', confirmPassword: '' });
  const [errors, setErrors] = useState<FieldErrors<ResetPasswordForm>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  useEffect(() => {
    if (link.status !== 'checking') return;
    let cancelled = false;
    const code = new URLSearchParams(landing.current.search).get('code');
    void ensureRecoverySession(code).then(({ ok, error }) => {
      if (cancelled) return;
      if (ok) setLink({ status: 'ready' });
      else if (error) setLink({ status: 'invalid', detail: error });
      else navigate('/auth/signin', { replace: true });
    });
    return () => {
      cancelled = true;
    };
  }, [link.status, navigate]);

  useEffect(() => {
    if (link.status !== 'done') return;
    const timer = setTimeout(() => navigate('/auth/signin', { replace: true }), RESET_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [link.status, navigate]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = resetPasswordFormSchema.safeParse(form);
    if (!parsed.success) {
      setErrors(fieldErrorsOf<ResetPasswordForm>(parsed.error));
      return;
    }
    setErrors({});
    setServerError(null);
    setPending(true);
    const { error } = await finishPasswordRecovery(parsed.data.password);
    setPending(false);
    if (error) {
      setServerError(error);
      return;
    }
    toast.success(T.toasts.passwordUpdated.title);
    setLink({ status: 'done' });
  };

  const frame = (children: ReactNode) => (
    <AuthCardLayout title={T.resetPassword.title} subtitle={T.resetPassword.subtitle}>
      {children}
    </AuthCardLayout>
  );

  if (link.status === 'checking') {
    return frame(
      <p role="status" className="py-6 text-center text-[15px] text-neutral-500">
        {T.resetPassword.checking}
      </p>,
    );
  }

  if (link.status === 'invalid') {
    return (
      <AuthCardLayout title={T.resetPassword.linkInvalidTitle} subtitle={T.resetPassword.linkInvalidBody}>
        <div role="alert" className="text-center">
          {link.detail && <p className="rounded-xl bg-neutral-50 px-3 py-2 text-[13px] text-neutral-500">{link.detail}</p>}
          <Link to="/auth/forgot-password" className={buttonClasses('primary', 'lg', `${link.detail ? 'mt-5' : ''} w-full`)}>
            {T.resetPassword.requestNewLink}
          </Link>
          <Link to="/auth/signin" className="mt-4 inline-block text-sm font-semibold text-neutral-950 hover:underline">
            {T.resetPassword.backToSignIn}
          </Link>
        </div>
      </AuthCardLayout>
    );
  }

  if (link.status === 'done') {
    return frame(
      <div role="status" className="text-center">
        <span className="mx-auto mb-4 flex h-12 w-12 items-center justify-center rounded-full bg-emerald-50 text-emerald-600">
          <CheckIcon className="h-6 w-6" />
        </span>
        <p className="text-[15px] text-neutral-600">{T.resetPassword.done}</p>
      </div>,
    );
  }

  return frame(
    <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4">
      <FormField label={T.resetPassword.newPassword} type="password" autoComplete="new-password" value={form.password} error={errors.password} onChange={(event) => setForm({ ...form, password: event.target.value })} />
      <FormField label={T.resetPassword.confirmPassword} type="password" autoComplete="new-password" value={form.confirmPassword} error={errors.confirmPassword} onChange={(event) => setForm({ ...form, confirmPassword: event.target.value })} />
      <FormError message={serverError} />
      <Button type="submit" size="lg" className="w-full" disabled={pending}>
        {pending ? T.resetPassword.submitting : T.resetPassword.submit}
      </Button>
    </form>,
  );
}
