// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp, setUpAppTests } from '../support/render-app.tsx';
import { installFakeAuth } from './fake-auth.ts';

vi.mock('../../../src/lib/supabase-client.ts', async () => ({ supabase: (await import('../support/fake-supabase.ts')).fakeSupabase.client }));

const fill = async (label: string, value: string) => fireEvent.change(await screen.findByLabelText(label), { target: { value } });

async function fillValidForm() {
  await fill('First name', 'Ada');
  await fill('Last name', 'Lovelace');
  await fill('Email', 'ada@example.test');
  await fill('Password', 'analytical');
}

describe('the sign-up screen', () => {
  setUpAppTests();
  let auth: ReturnType<typeof installFakeAuth>;
  beforeEach(() => {
    auth = installFakeAuth();
  });

  it('names every missing field and the unaccepted terms, and calls nothing', async () => {
    renderApp('/auth/signup');
    fireEvent.click(await screen.findByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByText('Enter your first name.')).toBeTruthy();
    expect(screen.getByText('Enter your last name.')).toBeTruthy();
    expect(screen.getByText('Enter your email address.')).toBeTruthy();
    expect(screen.getByText('Enter your password.')).toBeTruthy();
    expect(screen.getByText('Please accept the Terms of Service to continue.')).toBeTruthy();
    expect(auth.signUp).not.toHaveBeenCalled();
  });

  it('requires the terms checkbox, which links to /terms, and a password of at least 6 characters', async () => {
    renderApp('/auth/signup');
    await fillValidForm();
    await fill('Password', 'short');
    expect(screen.getByRole('link', { name: 'Terms of Service' }).getAttribute('href')).toBe('/terms');
    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByText('Password must be at least 6 characters.')).toBeTruthy();
    expect(screen.getByText('Please accept the Terms of Service to continue.')).toBeTruthy();
    expect(auth.signUp).not.toHaveBeenCalled();
  });

  it("signs up with the names, confirms by email to the redirect target and says 'Check your email'", async () => {
    renderApp('/auth/signup?redirect=%2Fprofile');
    await fillValidForm();
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByText('Confirm your email to finish signup.')).toBeTruthy();
    expect(screen.getAllByText('Check your email').length).toBeGreaterThanOrEqual(1);
    expect(auth.signUp).toHaveBeenCalledWith({
      email: 'ada@example.test',
      password: 'analytical',
      options: { data: { first_name: 'Ada', last_name: 'Lovelace', full_name: 'Ada Lovelace' }, emailRedirectTo: `${window.location.origin}/auth/confirmed?next=%2Fprofile` },
    });
  });

  it("shows our sentence for the server's error code, never its message, under 'Signup failed' under the form, once, with no toast", async () => {
    auth.signUp.mockResolvedValue({ data: null, error: { message: 'Some library text', status: 429, code: 'over_email_send_rate_limit' } });
    renderApp('/auth/signup');
    await fillValidForm();
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Signup failedAn email was requested for this address moments ago. Please wait a minute and try again.',
    );
    expect(screen.getAllByText('Signup failed')).toHaveLength(1);
    expect(screen.getAllByText('An email was requested for this address moments ago. Please wait a minute and try again.')).toHaveLength(1);
    expect(screen.queryByText(/Some library text/)).toBeNull();
  });

  it('refuses a look-alike address with a Cyrillic letter among Latin ones, with our sentence, before asking the server', async () => {
    renderApp('/auth/signup');
    await fillValidForm();
    await fill('Email', 'p\u0430ypal@example.test');
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByText(/mixes letters from different alphabets or hidden characters/)).toBeTruthy();
    expect(auth.signUp).not.toHaveBeenCalled();
  });

  it("shows our look-alike sentence when the server refuses an address that only looks Latin", async () => {
    auth.signUp.mockResolvedValue({ data: null, error: { message: 'server text', status: 400, code: 'email_address_invalid' } });
    renderApp('/auth/signup');
    await fillValidForm();
    await fill('Email', 'ceo@\u0430\u0440\u0440\u04cf\u0435.com');
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/^Signup failedThis email address mixes letters from different alphabets/);
    expect(auth.signUp).toHaveBeenCalledTimes(1);
  });

  it('offers Google sign-up and a link to sign in', async () => {
    renderApp('/auth/signup');
    expect(await screen.findByRole('button', { name: 'Sign Up with Google' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/auth/signin');
  });
});

describe('the older admin screen at /auth', () => {
  setUpAppTests();
  let auth: ReturnType<typeof installFakeAuth>;
  beforeEach(() => {
    auth = installFakeAuth();
  });

  it('keeps both buttons disabled while the email or the password is empty', async () => {
    renderApp('/auth');
    const signIn = (await screen.findByRole('button', { name: 'Sign In' })) as HTMLButtonElement;
    const create = screen.getByRole('button', { name: 'Create Account' }) as HTMLButtonElement;
    expect([signIn.disabled, create.disabled]).toEqual([true, true]);
    await fill('Email', 'admin@obyect.local');
    expect([signIn.disabled, create.disabled]).toEqual([true, true]);
    await fill('Password', 'secret-1');
    expect([signIn.disabled, create.disabled]).toEqual([false, false]);
    await fill('Email', '');
    expect([signIn.disabled, create.disabled]).toEqual([true, true]);
  });

  it('sends a new account to sign in after the confirmation email', async () => {
    const app = renderApp('/auth');
    await fill('Email', 'new@obyect.local');
    await fill('Password', 'secret-1');
    fireEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    await waitFor(() => expect(app.currentUrl()).toBe('/auth/signin'));
    expect(auth.signUp).toHaveBeenCalledWith(expect.objectContaining({ options: expect.objectContaining({ emailRedirectTo: `${window.location.origin}/auth/confirmed?next=%2Fadmin` }) }));
  });
});
