import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { toast } from '../../../lib/toast.ts';
import { Button } from '../../../components/ui/button.tsx';
import { CheckIcon } from '../../../components/ui/icons.tsx';
import { ACCOUNT_TEXTS } from '../../../lib/account-texts.ts';
import { fieldErrorsOf, signUpFormSchema, type FieldErrors } from '../api/auth-form-schemas.ts';
import { signUp } from '../api/sign-up.ts';
import { confirmationLinkTarget, useRedirectTarget } from '../hooks/use-redirect-target.ts';
import { FormError, FormField, OrDivider } from './form-field.tsx';
import { GoogleButton } from './google-button.tsx';

type SignUpForm = { firstName: string; lastName: string; email: string; password: string; acceptedTerms: boolean };

/** Account creation with names and the required terms checkbox; the emailed link finishes it. */
export function SignUpForm() {
  const T = ACCOUNT_TEXTS.account;
  const { search } = useLocation();
  const target = useRedirectTarget();
  const [form, setForm] = useState<SignUpForm>({ firstName: '', lastName: '', email: '', password: '', acceptedTerms: false });
  const [errors, setErrors] = useState<FieldErrors<SignUpForm>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = signUpFormSchema.safeParse(form);
    if (!parsed.success) {
      setErrors(fieldErrorsOf<SignUpForm>(parsed.error));
      return;
    }
    setErrors({});
    setServerError(null);
    setPending(true);
    const { error } = await signUp({ ...parsed.data, emailRedirectTo: confirmationLinkTarget(target) });
    setPending(false);
    if (error) {
      // Said once, under the form (no toast repeating it).
      setServerError(error);
      return;
    }
    toast.success(T.toasts.checkEmail.title, { description: T.toasts.checkEmail.description });
    setSentTo(parsed.data.email);
  };

  if (sentTo) {
    return (
      <div className="text-center" role="status">
        <span className="mx-auto mb-4 flex h-12 w-12 items-center justify-center rounded-full bg-emerald-50 text-emerald-600">
          <CheckIcon className="h-6 w-6" />
        </span>
        <h2 className="text-lg font-semibold">{T.signUp.sentTitle}</h2>
        <p className="mt-1.5 text-[15px] text-neutral-500">{T.signUp.sentBody(sentTo)}</p>
        <Link to={`/auth/signin${search}`} className="mt-6 inline-block text-sm font-semibold text-neutral-950 hover:underline">
          {T.forgotPassword.backToSignIn}
        </Link>
      </div>
    );
  }

  return (
    <>
      <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4">
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <FormField label={T.signUp.firstName} autoComplete="given-name" value={form.firstName} error={errors.firstName} onChange={(event) => setForm({ ...form, firstName: event.target.value })} />
          <FormField label={T.signUp.lastName} autoComplete="family-name" value={form.lastName} error={errors.lastName} onChange={(event) => setForm({ ...form, lastName: event.target.value })} />
        </div>
        <FormField label={T.email} type="email" autoComplete="email" value={form.email} error={errors.email} onChange={(event) => setForm({ ...form, email: event.target.value })} />
        <FormField label={T.password} type="password" autoComplete="new-password" value={form.password} error={errors.password} onChange={(event) => setForm({ ...form, password: event.target.value })} />
        <div>
          <label className="flex cursor-pointer items-start gap-2.5 text-sm text-neutral-600">
            <input
              type="checkbox"
              checked={form.acceptedTerms}
              aria-invalid={errors.acceptedTerms ? true : undefined}
              onChange={(event) => setForm({ ...form, acceptedTerms: event.target.checked })}
              className="mt-0.5 h-4 w-4 shrink-0 rounded border-neutral-300 accent-neutral-950"
            />
            <span>
              {T.signUp.termsPrefix}{' '}
              <Link to="/terms" target="_blank" className="font-medium text-neutral-950 underline underline-offset-2">
                {T.signUp.terms}
              </Link>
            </span>
          </label>
          {errors.acceptedTerms && <p className="mt-1.5 text-[13px] text-red-600">{errors.acceptedTerms}</p>}
        </div>
        <FormError title={T.toasts.signupFailed.title} message={serverError} />
        <Button type="submit" size="lg" className="w-full" disabled={pending}>
          {pending ? T.signUp.submitting : T.signUp.submit}
        </Button>
      </form>
      <OrDivider label={T.orContinue} />
      <GoogleButton label={T.google.signUp} redirectTo={`${window.location.origin}${target}`} onError={setServerError} />
      <p className="mt-6 text-center text-sm text-neutral-500">
        {T.signUp.haveAccount}{' '}
        <Link to={`/auth/signin${search}`} className="font-semibold text-neutral-950 hover:underline">
          {T.signUp.signIn}
        </Link>
      </p>
    </>
  );
}
