import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { Button, buttonClasses } from '../../../components/ui/button.tsx';
import { CheckIcon } from '../../../components/ui/icons.tsx';
import { ACCOUNT_TEXTS } from '../../../lib/account-texts.ts';
import { fieldErrorsOf, forgotPasswordFormSchema, type FieldErrors } from '../api/auth-form-schemas.ts';
import { requestPasswordReset } from '../api/request-password-reset.ts';
import { FormError, FormField } from './form-field.tsx';

type ForgotPasswordForm = { email: string };

/** Asks for one reset email, then says to check the inbox. */
export function ForgotPasswordForm() {
  const T = ACCOUNT_TEXTS.account;
  const [form, setForm] = useState<ForgotPasswordForm>({ email: '' });
  const [errors, setErrors] = useState<FieldErrors<ForgotPasswordForm>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    const parsed = forgotPasswordFormSchema.safeParse(form);
    if (!parsed.success) {
      setErrors(fieldErrorsOf<ForgotPasswordForm>(parsed.error));
      return;
    }
    setErrors({});
    setServerError(null);
    setPending(true);
    const { error } = await requestPasswordReset(parsed.data.email);
    setPending(false);
    if (error) setServerError(error);
    else setSentTo(parsed.data.email);
  };

  if (sentTo) {
    return (
      <div className="text-center" role="status">
        <span className="mx-auto mb-4 flex h-12 w-12 items-center justify-center rounded-full bg-emerald-50 text-emerald-600">
          <CheckIcon className="h-6 w-6" />
        </span>
        <h2 className="text-lg font-semibold">{T.forgotPassword.sentTitle}</h2>
        <p className="mt-1.5 text-[15px] text-neutral-500">{T.forgotPassword.sentBody(sentTo)}</p>
        <Link to="/auth/signin" className={buttonClasses('primary', 'lg', 'mt-6 w-full')}>
          {T.forgotPassword.backToSignIn}
        </Link>
      </div>
    );
  }

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4">
      <FormField label={T.email} type="email" autoComplete="email" value={form.email} error={errors.email} onChange={(event) => setForm({ email: event.target.value })} />
      <FormError message={serverError} />
      <Button type="submit" size="lg" className="w-full" disabled={pending}>
        {pending ? T.forgotPassword.submitting : T.forgotPassword.submit}
      </Button>
      <p className="pt-2 text-center text-sm">
        <Link to="/auth/signin" className="font-semibold text-neutral-950 hover:underline">
          {T.forgotPassword.backToSignIn}
        </Link>
      </p>
    </form>
  );
}
