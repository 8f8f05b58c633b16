import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from '../../../lib/toast.ts';
import { Button } from '../../../components/ui/button.tsx';
import { ACCOUNT_TEXTS } from '../../../lib/account-texts.ts';
import { signInWithPassword } from '../api/sign-in-with-password.ts';
import { signUp } from '../api/sign-up.ts';
import { confirmationLinkTarget } from '../hooks/use-redirect-target.ts';
import { FormError, FormField } from './form-field.tsx';

/** The older admin screen: sign in or create an account with just email and password. */
export function AdminLoginForm() {
  const T = ACCOUNT_TEXTS.account;
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  // Said once, under the form, with what failed as its title (no toast repeating it).
  const [serverError, setServerError] = useState<{ title: string; message: string } | null>(null);
  const [pending, setPending] = useState(false);
  const incomplete = email.trim() === '' || password === '';

  const signIn = async (event: FormEvent) => {
    event.preventDefault();
    if (incomplete) return;
    setServerError(null);
    setPending(true);
    const { error } = await signInWithPassword({ email, password });
    setPending(false);
    if (error) setServerError({ title: T.toasts.loginFailed.title, message: error });
    else navigate('/admin', { replace: true });
  };

  const createAccount = async () => {
    setServerError(null);
    setPending(true);
    const { error } = await signUp({ email, password, emailRedirectTo: confirmationLinkTarget('/admin') });
    setPending(false);
    if (error) {
      setServerError({ title: T.toasts.signupFailed.title, message: error });
      return;
    }
    toast.success(T.toasts.checkEmail.title, { description: T.toasts.checkEmail.description });
    navigate('/auth/signin');
  };

  return (
    <form noValidate onSubmit={(event) => void signIn(event)} className="space-y-4">
      <FormField label={T.email} type="email" autoComplete="email" value={email} onChange={(event) => setEmail(event.target.value)} />
      <FormField label={T.password} type="password" autoComplete="current-password" value={password} onChange={(event) => setPassword(event.target.value)} />
      <FormError title={serverError?.title} message={serverError?.message ?? null} />
      <div className="grid grid-cols-1 gap-2.5 sm:grid-cols-2">
        <Button type="submit" size="lg" disabled={incomplete || pending}>
          {T.adminLogin.signIn}
        </Button>
        <Button variant="outline" size="lg" disabled={incomplete || pending} onClick={() => void createAccount()}>
          {T.adminLogin.createAccount}
        </Button>
      </div>
    </form>
  );
}
