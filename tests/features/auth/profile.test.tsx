// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Session } from '@supabase/supabase-js';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSupabase, sessionFor } from '../support/fake-supabase.ts';
import { renderApp, setUpAppTests } from '../support/render-app.tsx';
import { installFakeAuth } from './fake-auth.ts';

vi.mock('../../../src/lib/supabase-client.ts', async () => ({ supabase: (await import('../support/fake-supabase.ts')).fakeSupabase.client }));

function signedInAs(metadata: Record<string, unknown>, email = 'ada@example.test', extra: Partial<Session['user']> = {}) {
  const session = sessionFor('7b0c1f8e-0000-4000-8000-000000000001', email);
  session.user = { ...session.user, user_metadata: metadata, created_at: '2026-03-04T10:00:00Z', ...extra };
  fakeSupabase.session = session;
  return session;
}

const card = async (title: string) => screen.findByRole('region', { name: title });

describe('the profile page', () => {
  setUpAppTests();
  let auth: ReturnType<typeof installFakeAuth>;
  beforeEach(() => {
    auth = installFakeAuth();
  });

  it('shows the cards Profile Information, Change Password, Subscription Plan, Account Information and Sign out', async () => {
    signedInAs({ full_name: 'Ada Lovelace' });
    renderApp('/profile');
    for (const title of ['Profile Information', 'Change Password', 'Subscription Plan', 'Account Information', 'Sign out']) {
      expect(await card(title)).toBeTruthy();
    }
    expect(within(await card('Profile Information')).getByText('Changing your email requires verification of the new address.')).toBeTruthy();
  });

  it('names the user by full name, else the email prefix, with initials or the stored avatar', async () => {
    signedInAs({}, 'grace.hopper@example.test');
    renderApp('/profile');
    const info = await card('Profile Information');
    expect(within(info).getByText('grace.hopper')).toBeTruthy();
    expect(within(info).getByText('G')).toBeTruthy();
  });

  it('shows the avatar from the metadata when there is one', async () => {
    signedInAs({ full_name: 'Ada Lovelace', avatar_url: 'https://images.test/ada.png' });
    const { container } = renderApp('/profile');
    await card('Profile Information');
    expect(container.querySelector('img[src="https://images.test/ada.png"]')).toBeTruthy();
  });

  it("saves the full name in the user's metadata and says 'Profile updated'", async () => {
    signedInAs({ full_name: 'Ada Lovelace' });
    renderApp('/profile');
    fireEvent.change(await screen.findByLabelText('Full name'), { target: { value: 'Ada King' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Profile updated')).toBeTruthy();
    expect(auth.updateUser).toHaveBeenCalledWith({ data: { full_name: 'Ada King' } });
  });

  it('asks for a new email address through updateUser, which sends the confirmation link, and says so', async () => {
    signedInAs({ full_name: 'Ada Lovelace' });
    renderApp('/profile');
    const info = await card('Profile Information');
    fireEvent.change(within(info).getByLabelText('Email'), { target: { value: 'not-an-email' } });
    fireEvent.click(within(info).getByRole('button', { name: 'Save Changes' }));
    expect(await within(info).findByText('Enter a valid email address.')).toBeTruthy();
    expect(auth.updateUser).not.toHaveBeenCalled();

    fireEvent.change(within(info).getByLabelText('Email'), { target: { value: 'ada.king@example.test' } });
    fireEvent.click(within(info).getByRole('button', { name: 'Save Changes' }));
    expect(await within(info).findByText('Enter your current password.')).toBeTruthy();
    expect(auth.updateUser).not.toHaveBeenCalled();

    fireEvent.change(within(info).getByLabelText('Current password'), { target: { value: 'analytical' } });
    fireEvent.click(within(info).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Check ada.king@example.test to confirm the change of address.')).toBeTruthy();
    expect(auth.updateUser).toHaveBeenCalledWith(
      { email: 'ada.king@example.test', data: { full_name: 'Ada Lovelace' }, current_password: 'analytical' },
      { emailRedirectTo: `${window.location.origin}/profile` },
    );
  });

  it('says in our words when the current password is wrong', async () => {
    signedInAs({ full_name: 'Ada Lovelace' });
    auth.updateUser.mockResolvedValue({ data: null, error: { message: 'library text', status: 400, code: 'current_password_invalid' } });
    renderApp('/profile');
    const passwordCard = await card('Change Password');
    fireEvent.change(within(passwordCard).getByLabelText('Current password'), { target: { value: 'a-guess' } });
    fireEvent.change(within(passwordCard).getByLabelText('New password'), { target: { value: 'long-enough' } });
    fireEvent.change(within(passwordCard).getByLabelText('Confirm new password'), { target: { value: 'long-enough' } });
    fireEvent.click(within(passwordCard).getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText('Your current password is not right.')).toBeTruthy();
    expect(screen.queryByText('library text')).toBeNull();
  });

  it('reloads the account when an email-change link lands on the profile, showing the new address, and drops the code', async () => {
    signedInAs({ full_name: 'Ada Lovelace' });
    auth.refreshSession.mockImplementation(async () => {
      const session = { ...fakeSupabase.session!, user: { ...fakeSupabase.session!.user, email: 'ada.king@example.test' } };
      fakeSupabase.emitAuth('TOKEN_REFRESHED', session);
      return { data: { session }, error: null };
    });
    const app = renderApp('/profile?code=email-change-code');
    await waitFor(() => expect(app.currentUrl()).toBe('/profile'));
    const info = await card('Profile Information');
    await waitFor(() => expect((within(info).getByLabelText('Email') as HTMLInputElement).value).toBe('ada.king@example.test'));
    expect(auth.refreshSession).toHaveBeenCalled();
  });

  it('refuses a short password and a mismatched confirmation with their toasts, then updates the password', async () => {
    signedInAs({ full_name: 'Ada Lovelace' });
    renderApp('/profile');
    const passwordCard = await card('Change Password');
    const newPassword = within(passwordCard).getByLabelText('New password');
    const confirm = within(passwordCard).getByLabelText('Confirm new password');
    const submit = within(passwordCard).getByRole('button', { name: 'Update Password' });

    fireEvent.change(newPassword, { target: { value: 'long-enough' } });
    fireEvent.click(submit);
    expect(await screen.findByText('Enter your current password.')).toBeTruthy();
    fireEvent.change(within(passwordCard).getByLabelText('Current password'), { target: { value: 'analytical' } });

    fireEvent.change(newPassword, { target: { value: 'short' } });
    fireEvent.click(submit);
    expect(await screen.findByText('Password too short')).toBeTruthy();
    expect(screen.getByText('Password must be at least 6 characters long.')).toBeTruthy();

    fireEvent.change(newPassword, { target: { value: 'long-enough' } });
    fireEvent.change(confirm, { target: { value: 'different' } });
    fireEvent.click(submit);
    expect(await screen.findByText('Password mismatch')).toBeTruthy();
    expect(screen.getByText('The passwords do not match.')).toBeTruthy();
    expect(auth.updateUser).not.toHaveBeenCalled();

    fireEvent.change(confirm, { target: { value: 'long-enough' } });
    fireEvent.click(submit);
    expect(await screen.findByText('Password updated')).toBeTruthy();
    expect(auth.updateUser).toHaveBeenCalledWith({ password: 'long-enough', current_password: 'analytical' });
  });

  it('shows the Free plan with Upgrade Plan opening the pricing dialog', async () => {
    signedInAs({ full_name: 'Ada Lovelace' });
    renderApp('/profile');
    const plan = await card('Subscription Plan');
    await waitFor(() => expect(within(plan).getByTestId('current-plan').textContent).toBe('Free'));
    fireEvent.click(within(plan).getByRole('button', { name: 'Upgrade Plan' }));
    expect(await screen.findByRole('dialog')).toBeTruthy();
  });

  it('lists the user id, the creation date and whether the email is confirmed', async () => {
    signedInAs({ full_name: 'Ada Lovelace' }, 'ada@example.test', { email_confirmed_at: '2026-03-04T10:05:00Z' });
    renderApp('/profile');
    const account = await card('Account Information');
    expect(within(account).getByText('7b0c1f8e-0000-4000-8000-000000000001')).toBeTruthy();
    expect(within(account).getByText('Mar 4, 2026')).toBeTruthy();
    expect(within(account).getByText('Yes')).toBeTruthy();
  });

  it('says No for an unconfirmed email', async () => {
    signedInAs({ full_name: 'Ada Lovelace' });
    renderApp('/profile');
    expect(within(await card('Account Information')).getByText('No')).toBeTruthy();
  });
});
