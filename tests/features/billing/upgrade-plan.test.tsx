// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeSupabase, sessionFor } from '../support/fake-supabase.ts';
import { renderBilling, setUpBillingTests } from './render-billing.tsx';

vi.mock('../../../src/lib/supabase-client.ts', async () => ({ supabase: (await import('../support/fake-supabase.ts')).fakeSupabase.client }));

const USER_ID = '66666666-6666-4666-8666-666666666666';

describe('Upgrade Plan', () => {
  setUpBillingTests();

  it('is not offered to an anonymous visitor', async () => {
    renderBilling('/library');
    await screen.findByRole('button', { name: 'See plans' });
    await waitFor(() => expect(fakeSupabase.callsOf('has_valid_access')).toHaveLength(0));
    expect(screen.queryByRole('button', { name: 'Upgrade Plan' })).toBeNull();
  });

  it('is offered to a signed-in user without a subscription once the entitlement is loaded', async () => {
    fakeSupabase.session = sessionFor(USER_ID);
    let answer: (value: { data: boolean; error: null }) => void = () => {};
    fakeSupabase.onRpc('has_valid_access', () => new Promise((resolve) => (answer = resolve)));
    renderBilling('/library');
    await waitFor(() => expect(fakeSupabase.callsOf('has_valid_access').length).toBeGreaterThanOrEqual(1));
    expect(screen.queryByRole('button', { name: 'Upgrade Plan' })).toBeNull();
    answer({ data: false, error: null });
    expect(await screen.findByRole('button', { name: 'Upgrade Plan' })).toBeTruthy();
  });

  it('is not offered to a subscriber', async () => {
    fakeSupabase.session = sessionFor(USER_ID);
    fakeSupabase.onRpc('has_valid_access', () => ({ data: true, error: null }));
    renderBilling('/library');
    await waitFor(() => expect(fakeSupabase.callsOf('has_valid_access').length).toBeGreaterThanOrEqual(1));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.queryByRole('button', { name: 'Upgrade Plan' })).toBeNull();
  });
});
