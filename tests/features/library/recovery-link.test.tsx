// @vitest-environment jsdom
import { waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { isRecoveryLink } from '../../../src/app/recovery-link.ts';
import { installFakeAuth } from '../auth/fake-auth.ts';
import { fakeSupabase, sessionFor } from '../support/fake-supabase.ts';
import { renderApp, setUpAppTests } from '../support/render-app.tsx';

vi.mock('../../../src/lib/supabase-client.ts', async () => ({ supabase: (await import('../support/fake-supabase.ts')).fakeSupabase.client }));

describe('recovery link detection', () => {
  it.each([
    ['a hash with type=recovery', { pathname: '/', search: '', hash: '#type=recovery' }],
    ['a hash with an access_token', { pathname: '/', search: '', hash: '#access_token=abc&type=magiclink' }],
    ['a query with type=recovery', { pathname: '/', search: '?type=recovery', hash: '' }],
    ['a query with a code', { pathname: '/', search: '?code=123', hash: '' }],
    ['a query with a token', { pathname: '/', search: '?token=123', hash: '' }],
    ['a path containing /auth/reset-password', { pathname: '/x/auth/reset-password', search: '', hash: '' }],
  ])('detects %s', (_, url) => {
    expect(isRecoveryLink(url)).toBe(true);
  });

  it.each([
    ['a plain root', { pathname: '/', search: '', hash: '' }],
    ['another type in the query', { pathname: '/', search: '?type=signup', hash: '' }],
    ['another type in the hash', { pathname: '/', search: '', hash: '#type=invite' }],
    ['a filter query', { pathname: '/', search: '?brand=lumora', hash: '#top' }],
  ])('does not detect %s', (_, url) => {
    expect(isRecoveryLink(url)).toBe(false);
  });
});

describe('the root route', () => {
  setUpAppTests();

  it('redirects to /library', async () => {
    const app = renderApp('/');
    await waitFor(() => expect(app.currentUrl()).toBe('/library'));
  });

  it('redirects a recovery link to /auth/reset-password keeping its query and hash', async () => {
    const app = renderApp('/?type=recovery&redirect=x#access_token=abc&type=recovery');
    await waitFor(() => expect(app.currentUrl()).toBe('/auth/reset-password?type=recovery&redirect=x#access_token=abc&type=recovery'));
  });

  it('redirects a PKCE recovery link (a code in the query) to /auth/reset-password, which exchanges the code', async () => {
    const auth = installFakeAuth();
    auth.exchangeCodeForSession.mockImplementation(async () => {
      fakeSupabase.emitAuth('PASSWORD_RECOVERY', sessionFor('reader'));
      return { data: { session: fakeSupabase.session }, error: null };
    });
    const app = renderApp('/?code=pkce-code');
    await waitFor(() => expect(auth.exchangeCodeForSession).toHaveBeenCalledWith('pkce-code'));
    // The one-time code has been used; the page drops it from the address.
    await waitFor(() => expect(app.currentUrl()).toBe('/auth/reset-password'));
  });
});
