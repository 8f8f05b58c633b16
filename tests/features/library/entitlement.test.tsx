// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeSupabase, sessionFor } from '../support/fake-supabase.ts';
import { renderApp, setUpAppTests } from '../support/render-app.tsx';

vi.mock('../../../src/lib/supabase-client.ts', async () => ({ supabase: (await import('../support/fake-supabase.ts')).fakeSupabase.client }));

const USER_ID = '22222222-2222-4222-8222-222222222222';
const bottomBar = () => screen.queryByRole('region', { name: 'Need more inspiration?' });
const findBottomBar = () => screen.findByRole('region', { name: 'Need more inspiration?' });

describe('entitlement', () => {
  setUpAppTests();

  it('gives an anonymous visitor no access without asking the server, and the bar offers an account', async () => {
    renderApp('/library');
    const bar = await findBottomBar();
    expect(within(bar).getByRole('link', { name: 'Create account' }).getAttribute('href')).toBe('/auth/signup?next=%2Flibrary');
    expect(fakeSupabase.callsOf('has_valid_access')).toHaveLength(0);
    expect(screen.queryByRole('button', { name: /Upgrade Plan/ })).toBeNull();
  });

  it('asks the server for a signed-in user; without valid access the bar offers the subscription and opens pricing', async () => {
    fakeSupabase.session = sessionFor(USER_ID);
    renderApp('/library');
    const bar = await findBottomBar();
    expect(fakeSupabase.callsOf('has_valid_access')).toHaveLength(1);
    expect(screen.getByRole('button', { name: /Upgrade Plan/ })).toBeTruthy();

    fireEvent.click(within(bar).getByRole('button', { name: 'Subscribe Now to Unlock Full Access' }));
    expect(await screen.findByRole('dialog', { name: 'Unlock every winning ad' })).toBeTruthy();
  });

  it('hides the bar and Upgrade Plan with valid access', async () => {
    fakeSupabase.session = sessionFor(USER_ID);
    fakeSupabase.onRpc('has_valid_access', () => ({ data: true, error: null }));
    renderApp('/library');
    await waitFor(() => expect(fakeSupabase.callsOf('has_valid_access')).toHaveLength(1));
    await screen.findByText('No ads found matching your filters.');
    expect(bottomBar()).toBeNull();
    expect(screen.queryByRole('button', { name: /Upgrade Plan/ })).toBeNull();
  });

  it('shows neither bar nor upgrade while a signed-in check is still running', async () => {
    fakeSupabase.session = sessionFor(USER_ID);
    fakeSupabase.onRpc('has_valid_access', () => new Promise(() => {}));
    renderApp('/library');
    await screen.findByText('No ads found matching your filters.');
    expect(bottomBar()).toBeNull();
    expect(screen.queryByRole('button', { name: /Upgrade Plan/ })).toBeNull();
  });

  it('treats a failed check as no access', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    fakeSupabase.session = sessionFor(USER_ID);
    fakeSupabase.onRpc('has_valid_access', () => ({ data: null, error: { message: 'boom', code: '500' } }));
    renderApp('/library');
    const bar = await findBottomBar();
    expect(within(bar).getByRole('button', { name: 'Subscribe Now to Unlock Full Access' })).toBeTruthy();
    expect(console.error).toHaveBeenCalledWith('Entitlement check failed', expect.anything());
  });

  it('checks again on every auth state change', async () => {
    renderApp('/library');
    await waitFor(() => expect(bottomBar()).not.toBeNull());

    fakeSupabase.onRpc('has_valid_access', () => ({ data: true, error: null }));
    act(() => fakeSupabase.emitAuth('SIGNED_IN', sessionFor(USER_ID)));
    await waitFor(() => expect(bottomBar()).toBeNull());
    const checks = fakeSupabase.callsOf('has_valid_access').length;
    expect(checks).toBeGreaterThanOrEqual(1);

    fakeSupabase.onRpc('has_valid_access', () => ({ data: false, error: null }));
    act(() => fakeSupabase.emitAuth('TOKEN_REFRESHED', sessionFor(USER_ID)));
    await waitFor(() => expect(bottomBar()).not.toBeNull());
    expect(fakeSupabase.callsOf('has_valid_access').length).toBeGreaterThan(checks);

    act(() => fakeSupabase.emitAuth('SIGNED_OUT', null));
    await waitFor(() => expect(within(bottomBar()!).getByRole('link', { name: 'Create account' })).toBeTruthy());
  });
});
