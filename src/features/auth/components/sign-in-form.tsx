import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { toast } from '../../../lib/toast.ts';
import { Button } from '../../../components/ui/button.tsx';
import { ACCOUNT_TEXTS } from '../../../lib/account-texts.ts';
import { fieldErrorsOf, signInFormSchema, type FieldErrors } from '../api/auth-form-schemas.ts';
import { signInWithPassword } from '../api/sign-in-with-password.ts';
import { useRedirectTarget } from '../hooks/use-redirect-target.ts';
import { FormError, FormField, OrDivider } from './form-field.tsx';
import { GoogleButton } from './google-button.tsx';

type SignInForm = { email: string; password: string };

/** Email and password sign-in, then on to the safe redirect target (default /library). */
export function SignInForm() {
  const T = ACCOUNT_TEXTS.account;
  const navigate = useNavigate();
  const { search } = useLocation();
  const target = useRedirectTarget();
  const [form, setForm] = useState<SignInForm>({ email: '', password: '' });
  const [errors, setErrors] = useState<FieldErrors<SignInForm>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = signInFormSchema.safeParse(form);
    if (!parsed.success) {
      setErrors(fieldErrorsOf<SignInForm>(parsed.error));
      return;
    }
    setErrors({});
    setServerError(null);
    setPending(true);
    const { error } = await signInWithPassword(parsed.data);
    setPending(false);
    if (error) {
      // Said once, under the form (no toast repeating it).
      setServerError(error);
      return;
    }
    toast.success(T.toasts.welcomeBack.title);
    navigate(target, { replace: true });
  };

  return (
    <>
      <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4">
        <FormField
          label={T.email}
          type="email"
          autoComplete="email"
          value={form.email}
          error={errors.email}
          onChange={(event) => setForm({ ...form, email: event.target.value })}
        />
        <FormField
          label={T.password}
          type="password"
          autoComplete="current-password"
          value={form.password}
          error={errors.password}
          aside={
            <Link to="/auth/forgot-password" className="text-[13px] font-medium text-neutral-500 hover:text-neutral-950">
              {T.signIn.forgotPassword}
            </Link>
          }
          onChange={(event) => setForm({ ...form, password: event.target.value })}
        />
        <FormError title={T.toasts.loginFailed.title} message={serverError} />
        <Button type="submit" size="lg" className="w-full" disabled={pending}>
          {pending ? T.signIn.submitting : T.signIn.submit}
        </Button>
      </form>
      <OrDivider label={T.orContinue} />
      <GoogleButton label={T.google.signIn} redirectTo={`${window.location.origin}${target}`} onError={setServerError} />
      <p className="mt-6 text-center text-sm text-neutral-500">
        {T.signIn.noAccount}{' '}
        <Link to={`/auth/signup${search}`} className="font-semibold text-neutral-950 hover:underline">
          {T.signIn.signUp}
        </Link>
      </p>
    </>
  );
}
