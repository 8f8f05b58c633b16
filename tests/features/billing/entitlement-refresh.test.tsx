// @vitest-environment jsdom
import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeSupabase, sessionFor } from '../support/fake-supabase.ts';
import { renderBilling, setUpBillingTests } from './render-billing.tsx';

vi.mock('../../../src/lib/supabase-client.ts', async () => ({ supabase: (await import('../support/fake-supabase.ts')).fakeSupabase.client }));

const USER_ID = '77777777-7777-4777-8777-777777777777';
const LIST_KEY = ['ads', 'library', { brand: null }];

describe('a change of access', () => {
  setUpBillingTests();

  it('asks every loaded list of ads again when access starts or ends, and not before', async () => {
    fakeSupabase.session = sessionFor(USER_ID);
    const view = renderBilling('/library');
    await screen.findByRole('button', { name: 'Upgrade Plan' });
    view.queryClient.setQueryData(LIST_KEY, { pages: [], pageParams: [] });
    // The same answer again changes nothing.
    act(() => fakeSupabase.emitAuth('TOKEN_REFRESHED', sessionFor(USER_ID)));
    await waitFor(() => expect(fakeSupabase.callsOf('has_valid_access').length).toBeGreaterThanOrEqual(2));
    expect(view.queryClient.getQueryState(LIST_KEY)?.isInvalidated).toBe(false);

    fakeSupabase.onRpc('has_valid_access', () => ({ data: true, error: null }));
    act(() => fakeSupabase.emitAuth('TOKEN_REFRESHED', sessionFor(USER_ID)));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Upgrade Plan' })).toBeNull());
    await waitFor(() => expect(view.queryClient.getQueryState(LIST_KEY)?.isInvalidated).toBe(true));

    view.queryClient.setQueryData(LIST_KEY, { pages: [], pageParams: [] });
    fakeSupabase.onRpc('has_valid_access', () => ({ data: false, error: null }));
    act(() => fakeSupabase.emitAuth('TOKEN_REFRESHED', sessionFor(USER_ID)));
    await screen.findByRole('button', { name: 'Upgrade Plan' });
    await waitFor(() => expect(view.queryClient.getQueryState(LIST_KEY)?.isInvalidated).toBe(true));
  });
});
