import { useState, type FormEvent } from 'react';
import { toast } from '../../../lib/toast.ts';
import { Button } from '../../../components/ui/button.tsx';
import { PASSWORD_MIN_LENGTH } from '../../../lib/constants.ts';
import { ACCOUNT_TEXTS } from '../../../lib/account-texts.ts';
import { updatePassword } from '../api/update-account.ts';
import { FormField } from './form-field.tsx';
import { ProfileCard } from './profile-card.tsx';

/** A new password for the signed-in user, with the current one as proof; checked for length and confirmation first. */
export function ChangePasswordCard() {
  const T = ACCOUNT_TEXTS.profile.password;
  const toasts = ACCOUNT_TEXTS.account.toasts;
  const [currentPassword, setCurrentPassword] = useState('');
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [pending, setPending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (currentPassword === '') {
      toast.error(toasts.passwordUpdateFailed.title, { description: ACCOUNT_TEXTS.account.validation.currentPasswordRequired });
      return;
    }
    if (password.length < PASSWORD_MIN_LENGTH) {
      toast.error(toasts.passwordTooShort.title, { description: toasts.passwordTooShort.description });
      return;
    }
    if (password !== confirmPassword) {
      toast.error(toasts.passwordMismatch.title, { description: toasts.passwordMismatch.description });
      return;
    }
    setPending(true);
    const { error } = await updatePassword(password, currentPassword);
    setPending(false);
    if (error) {
      toast.error(toasts.passwordUpdateFailed.title, { description: error });
      return;
    }
    toast.success(toasts.passwordUpdated.title);
    setCurrentPassword('');
    setPassword('');
    setConfirmPassword('');
  };

  return (
    <ProfileCard title={T.title} description={T.description}>
      <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4">
        <FormField label={T.currentPassword} type="password" autoComplete="current-password" value={currentPassword} onChange={(event) => setCurrentPassword(event.target.value)} />
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <FormField label={T.newPassword} type="password" autoComplete="new-password" value={password} onChange={(event) => setPassword(event.target.value)} />
          <FormField label={T.confirmPassword} type="password" autoComplete="new-password" value={confirmPassword} onChange={(event) => setConfirmPassword(event.target.value)} />
        </div>
        <div className="flex justify-end">
          <Button type="submit" disabled={pending || password === ''}>
            {pending ? T.submitting : T.submit}
          </Button>
        </div>
      </form>
    </ProfileCard>
  );
}
