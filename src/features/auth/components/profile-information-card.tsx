import { useState, type FormEvent } from 'react';
import type { User } from '@supabase/supabase-js';
import { toast } from '../../../lib/toast.ts';
import { Button } from '../../../components/ui/button.tsx';
import { ACCOUNT_TEXTS } from '../../../lib/account-texts.ts';
import { fieldErrorsOf, profileFormSchema } from '../api/auth-form-schemas.ts';
import { updateProfile } from '../api/update-account.ts';
import { profileIdentityOf } from '../hooks/profile-identity.ts';
import { FormField } from './form-field.tsx';
import { ProfileAvatar } from './profile-avatar.tsx';
import { ProfileCard } from './profile-card.tsx';

/** Name (editable), email (changes need the current password and verification of the new address) and the avatar. */
export function ProfileInformationCard({ user }: { user: User }) {
  const T = ACCOUNT_TEXTS.profile.information;
  const identity = profileIdentityOf(user);
  const currentEmail = user.email ?? '';
  const [fullName, setFullName] = useState(identity.fullName);
  const [email, setEmail] = useState(currentEmail);
  const [emailError, setEmailError] = useState<string | undefined>();
  const [currentPassword, setCurrentPassword] = useState('');
  const [currentPasswordError, setCurrentPasswordError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);
  const emailChanged = email.trim().toLowerCase() !== currentEmail.toLowerCase();
  const unchanged = fullName.trim() === identity.fullName && !emailChanged;
  const pendingEmail = typeof user.new_email === 'string' && user.new_email ? user.new_email : null;

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = profileFormSchema.safeParse({ fullName, email });
    if (!parsed.success) {
      setEmailError(fieldErrorsOf<{ email: string }>(parsed.error).email);
      return;
    }
    setEmailError(undefined);
    if (emailChanged && currentPassword === '') {
      setCurrentPasswordError(ACCOUNT_TEXTS.account.validation.currentPasswordRequired);
      return;
    }
    setCurrentPasswordError(undefined);
    setPending(true);
    const { error } = await updateProfile({
      fullName: parsed.data.fullName,
      email: emailChanged ? parsed.data.email : undefined,
      currentPassword: emailChanged ? currentPassword : undefined,
    });
    setPending(false);
    if (error) {
      toast.error(ACCOUNT_TEXTS.account.toasts.updateFailed.title, { description: error });
      return;
    }
    toast.success(ACCOUNT_TEXTS.account.toasts.profileUpdated.title, emailChanged ? { description: T.emailChangeSent(parsed.data.email) } : undefined);
    if (emailChanged) {
      setEmail(currentEmail);
      setCurrentPassword('');
    }
  };

  return (
    <ProfileCard title={T.title} description={T.description}>
      <div className="mb-5 flex items-center gap-4">
        <ProfileAvatar identity={identity} />
        <div className="min-w-0">
          <p className="truncate text-lg font-semibold text-neutral-950">{identity.displayName}</p>
          <p className="truncate text-sm text-neutral-500">{user.email}</p>
        </div>
      </div>
      <form noValidate onSubmit={(event) => void save(event)} className="space-y-4">
        <FormField label={T.fullName} autoComplete="name" value={fullName} onChange={(event) => setFullName(event.target.value)} />
        <FormField
          label={T.email}
          type="email"
          autoComplete="email"
          value={email}
          error={emailError}
          hint={pendingEmail ? T.emailPending(pendingEmail) : T.emailNote}
          onChange={(event) => setEmail(event.target.value)}
        />
        {emailChanged && (
          <FormField
            label={T.currentPassword}
            type="password"
            autoComplete="current-password"
            value={currentPassword}
            error={currentPasswordError}
            hint={T.currentPasswordHint}
            onChange={(event) => setCurrentPassword(event.target.value)}
          />
        )}
        <div className="flex justify-end">
          <Button type="submit" disabled={pending || unchanged}>
            {pending ? T.saving : T.save}
          </Button>
        </div>
      </form>
    </ProfileCard>
  );
}
