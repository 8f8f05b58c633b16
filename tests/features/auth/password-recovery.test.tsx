// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSupabase, sessionFor } from '../support/fake-supabase.ts';
import { renderApp, setUpAppTests } from '../support/render-app.tsx';
import { installFakeAuth } from './fake-auth.ts';

vi.mock('../../../src/lib/supabase-client.ts', async () => ({ supabase: (await import('../support/fake-supabase.ts')).fakeSupabase.client }));

const fill = async (label: string, value: string) => fireEvent.change(await screen.findByLabelText(label), { target: { value } });

describe('the forgot-password screen', () => {
  setUpAppTests();
  let auth: ReturnType<typeof installFakeAuth>;
  beforeEach(() => {
    auth = installFakeAuth();
  });

  it('asks for an email before sending anything', async () => {
    renderApp('/auth/forgot-password');
    fireEvent.click(await screen.findByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByText('Enter your email address.')).toBeTruthy();
    expect(auth.resetPasswordForEmail).not.toHaveBeenCalled();
  });

  it("requests one reset email to this site's reset page, then says to check the inbox with a way back", async () => {
    renderApp('/auth/forgot-password');
    await fill('Email', 'free@obyect.local');
    fireEvent.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByText('Check your email')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Sign In' }).getAttribute('href')).toBe('/auth/signin');
    expect(auth.resetPasswordForEmail).toHaveBeenCalledTimes(1);
    expect(auth.resetPasswordForEmail).toHaveBeenCalledWith('free@obyect.local', { redirectTo: `${window.location.origin}/auth/reset-password` });
  });

  it("shows our sentence for the server's refusal under the form", async () => {
    auth.resetPasswordForEmail.mockResolvedValue({
      data: null,
      error: { message: 'For security purposes, you can only request this after 42 seconds.', status: 429, code: 'over_email_send_rate_limit' },
    });
    renderApp('/auth/forgot-password');
    await fill('Email', 'free@obyect.local');
    fireEvent.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect((await screen.findByRole('alert')).textContent).toBe('An email was requested for this address moments ago. Please wait a minute and try again.');
  });
});

describe('the reset-password screen', () => {
  setUpAppTests();
  let auth: ReturnType<typeof installFakeAuth>;
  beforeEach(() => {
    auth = installFakeAuth();
  });

  it('goes back to sign-in without a recovery session', async () => {
    const app = renderApp('/auth/reset-password');
    await waitFor(() => expect(app.currentUrl()).toBe('/auth/signin'));
  });

  it("exchanges the link's code for a session and then takes a new password", async () => {
    auth.exchangeCodeForSession.mockImplementation(async () => {
      const session = sessionFor('user-1');
      fakeSupabase.emitAuth('PASSWORD_RECOVERY', session);
      return { data: { session }, error: null };
    });
    renderApp('/auth/reset-password?code=recovery-code');
    expect(await screen.findByLabelText('New password')).toBeTruthy();
    expect(auth.exchangeCodeForSession).toHaveBeenCalledWith('recovery-code');
  });

  it("says a used or expired link no longer works, in our words, never the server's description", async () => {
    renderApp('/auth/reset-password?error=access_denied&error_code=otp_expired#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired');
    expect(await screen.findByText('This reset link no longer works')).toBeTruthy();
    expect(screen.getByText('This link no longer works. Request a new one.')).toBeTruthy();
    expect(screen.queryByText('Email link is invalid or has expired')).toBeNull();
    expect(screen.getByRole('link', { name: 'Request a new link' }).getAttribute('href')).toBe('/auth/forgot-password');
    expect(auth.exchangeCodeForSession).not.toHaveBeenCalled();
  });

  it('says a link whose code cannot be exchanged (already used) no longer works', async () => {
    renderApp('/auth/reset-password?code=used-code');
    expect(await screen.findByText('This reset link no longer works')).toBeTruthy();
  });

  it('checks length and confirmation, then updates the password and goes to sign-in after 1.5 s', async () => {
    fakeSupabase.session = sessionFor('user-1');
    const app = renderApp('/auth/reset-password');
    await fill('New password', 'short');
    fireEvent.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText('Password must be at least 6 characters.')).toBeTruthy();
    await fill('New password', 'long-enough');
    await fill('Confirm new password', 'different');
    fireEvent.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText('Passwords do not match.')).toBeTruthy();
    expect(auth.updateUser).not.toHaveBeenCalled();

    await fill('Confirm new password', 'long-enough');
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      fireEvent.click(screen.getByRole('button', { name: 'Update Password' }));
      expect(await screen.findByText('Password updated')).toBeTruthy();
      expect(auth.updateUser).toHaveBeenCalledWith({ password: 'long-enough' });
      expect(app.currentUrl()).toBe('/auth/reset-password');
      await act(async () => {
        await vi.advanceTimersByTimeAsync(1500);
      });
      await waitFor(() => expect(app.currentUrl()).toBe('/auth/signin'));
    } finally {
      vi.useRealTimers();
    }
  });

  it('opens the reset page on a password-recovery auth event', async () => {
    const app = renderApp('/library');
    await screen.findByText('Ad Library');
    act(() => fakeSupabase.emitAuth('PASSWORD_RECOVERY', sessionFor('user-1')));
    await waitFor(() => expect(app.currentUrl()).toBe('/auth/reset-password'));
  });
});

describe('the email confirmation landing', () => {
  setUpAppTests();

  it('says the email is confirmed and offers sign-in when this browser cannot finish the link (no PKCE verifier here)', async () => {
    renderApp('/auth/confirmed?next=%2Ftop-picks&code=from-another-browser');
    expect((await screen.findByTestId('email-confirmed')).textContent).toBe('Your address is confirmed. Sign in to continue.');
    // The heading says 'Email confirmed'; the page says it once.
    expect(screen.getByRole('heading', { name: 'Email confirmed' })).toBeTruthy();
    expect(document.body.textContent!.match(/Email confirmed/g)).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/auth/signin?next=%2Ftop-picks');
    expect(screen.queryByText(/PKCE|verifier/i)).toBeNull();
  });

  it('goes on to next, signed in, in the browser that signed up', async () => {
    fakeSupabase.session = sessionFor('user-1');
    const app = renderApp('/auth/confirmed?next=%2Ftop-picks');
    await waitFor(() => expect(app.currentUrl()).toBe('/top-picks'));
  });

  it('says an expired or used confirmation link no longer works, in our words', async () => {
    renderApp('/auth/confirmed?error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired');
    expect(await screen.findByText('This link no longer works')).toBeTruthy();
    expect(screen.queryByText('Email link is invalid or has expired')).toBeNull();
  });
});
