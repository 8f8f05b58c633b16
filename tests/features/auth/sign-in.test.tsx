// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSupabase, sessionFor } from '../support/fake-supabase.ts';
import { renderApp, setUpAppTests } from '../support/render-app.tsx';
import { installFakeAuth, signsIn } from './fake-auth.ts';

vi.mock('../../../src/lib/supabase-client.ts', async () => ({ supabase: (await import('../support/fake-supabase.ts')).fakeSupabase.client }));

const fill = async (label: string, value: string) => fireEvent.change(await screen.findByLabelText(label), { target: { value } });

describe('the sign-in screen', () => {
  setUpAppTests();
  let auth: ReturnType<typeof installFakeAuth>;
  beforeEach(() => {
    auth = installFakeAuth();
  });

  it('has email, password, Forgot Password, Sign In, Google and links to sign up, terms and privacy', async () => {
    renderApp('/auth/signin');
    await screen.findByRole('button', { name: 'Sign In' });
    expect(screen.getByLabelText('Email')).toBeTruthy();
    expect(screen.getByLabelText('Password')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Forgot Password?' }).getAttribute('href')).toBe('/auth/forgot-password');
    expect(screen.getByRole('button', { name: 'Sign In with Google' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign up' }).getAttribute('href')).toBe('/auth/signup');
    expect(screen.getByRole('link', { name: 'Terms' }).getAttribute('href')).toBe('/terms');
    expect(screen.getByRole('link', { name: 'Privacy' }).getAttribute('href')).toBe('/privacy');
  });

  it('asks for the email and password before calling the server', async () => {
    renderApp('/auth/signin');
    fireEvent.click(await screen.findByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Enter your email address.')).toBeTruthy();
    expect(screen.getByText('Enter your password.')).toBeTruthy();
    await fill('Email', 'not-an-email');
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Enter a valid email address.')).toBeTruthy();
    expect(auth.signInWithPassword).not.toHaveBeenCalled();
  });

  it("shows our sentence for the server's error code under the form under 'Login failed', once, with no toast", async () => {
    auth.signInWithPassword.mockResolvedValue({
      data: { session: null, user: null },
      error: { message: 'Invalid login credentials', status: 400, code: 'invalid_credentials' },
    });
    const app = renderApp('/auth/signin');
    await fill('Email', 'free@obyect.local');
    await fill('Password', 'wrong-password');
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Login failedInvalid login credentials. Check your email and password.');
    expect(screen.getAllByText('Login failed')).toHaveLength(1);
    expect(screen.getAllByText('Invalid login credentials. Check your email and password.')).toHaveLength(1);
    expect(auth.signInWithPassword).toHaveBeenCalledWith({ email: 'free@obyect.local', password: 'wrong-password' });
    expect(app.currentUrl()).toBe('/auth/signin');
  });

  it.each([
    ['/auth/signin', '/library'],
    ['/auth/signin?redirect=%2Fprofile%3Ftab%3Dplan', '/profile?tab=plan'],
    ['/auth/signin?next=%2Fads%2F42', '/ads/42'],
    ['/auth/signin?redirect=https%3A%2F%2Fevil.example', '/library'],
    ['/auth/signin?redirect=%2F%2Fevil.example', '/library'],
    ['/auth/signin?next=javascript%3Aalert(1)', '/library'],
  ])('from %s lands on %s after signing in', async (url, landing) => {
    auth.signInWithPassword.mockImplementation(signsIn(sessionFor('user-1')));
    const app = renderApp(url);
    await fill('Email', 'free@obyect.local');
    await fill('Password', 'obyect-free');
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(app.currentUrl()).toBe(landing));
  });

  it('starts Google sign-in back to the target and says so in our words when Google is not enabled', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      new Response(JSON.stringify({ code: 400, error_code: 'validation_failed', msg: 'Unsupported provider: provider is not enabled' }), { status: 400 }),
    );
    renderApp('/auth/signin?redirect=%2Fprofile');
    fireEvent.click(await screen.findByRole('button', { name: 'Sign In with Google' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Login failedThis way of signing in is not available.');
    expect(auth.signInWithOAuth).toHaveBeenCalledWith({ provider: 'google', options: expect.objectContaining({ redirectTo: `${window.location.origin}/profile` }) });
    expect(fetchSpy).toHaveBeenCalledWith('http://auth.test/authorize?provider=google', expect.anything());
  });

  it('sends a user who is already signed in on to the library', async () => {
    fakeSupabase.session = sessionFor('user-1');
    const app = renderApp('/auth/signin');
    await waitFor(() => expect(app.currentUrl()).toBe('/library'));
  });
});
