// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSupabase, sessionFor } from '../support/fake-supabase.ts';
import { renderApp, setUpAppTests } from '../support/render-app.tsx';
import { installFakeAuth } from './fake-auth.ts';

vi.mock('../../../src/lib/supabase-client.ts', async () => ({ supabase: (await import('../support/fake-supabase.ts')).fakeSupabase.client }));

describe('the route guard', () => {
  setUpAppTests();
  beforeEach(() => {
    installFakeAuth();
  });

  it.each(['/profile', '/favorites', '/admin'])('sends a signed-out visitor of %s to sign in with a redirect back, query included', async (path) => {
    const app = renderApp(`${path}?tab=1`);
    await waitFor(() => expect(app.currentUrl()).toBe(`/auth/signin?redirect=${encodeURIComponent(`${path}?tab=1`)}`));
  });

  it('sends a user who signs out on a guarded page to sign in with a redirect back', async () => {
    fakeSupabase.session = sessionFor('user-1');
    const app = renderApp('/profile');
    await screen.findByRole('heading', { name: 'Profile Settings' });
    act(() => fakeSupabase.emitAuth('SIGNED_OUT', null));
    await waitFor(() => expect(app.currentUrl()).toBe('/auth/signin?redirect=%2Fprofile'));
  });

  it.each(['/auth/signup', '/auth/forgot-password'])('sends a signed-in user on %s to the library', async (path) => {
    fakeSupabase.session = sessionFor('user-1');
    const app = renderApp(path);
    await waitFor(() => expect(app.currentUrl()).toBe('/library'));
  });

  it('sends a signed-in user on /auth to /admin', async () => {
    fakeSupabase.session = sessionFor('user-1');
    const app = renderApp('/auth');
    await waitFor(() => expect(app.currentUrl()).toBe('/admin'));
  });

  it('leaves a signed-in user on the reset-password page', async () => {
    fakeSupabase.session = sessionFor('user-1');
    const app = renderApp('/auth/reset-password');
    expect(await screen.findByLabelText('New password')).toBeTruthy();
    expect(app.currentUrl()).toBe('/auth/reset-password');
  });

  it("logs out from the profile with the 'Logged out' toast and lands on sign-in", async () => {
    fakeSupabase.session = sessionFor('user-1');
    const app = renderApp('/profile');
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out' }));
    expect(await screen.findByText('You have been successfully logged out.')).toBeTruthy();
    expect(screen.getByText('Logged out')).toBeTruthy();
    await waitFor(() => expect(app.currentUrl()).toBe('/auth/signin'));
  });
});
