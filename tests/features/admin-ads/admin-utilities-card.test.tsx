// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '../../../src/components/ui/toaster.tsx';
import { yesterdayUtc } from '../../../src/features/admin-ads/api/tag-ads-of-day.ts';
import { AdminUtilitiesCard } from '../../../src/features/admin-ads/components/admin-utilities-card.tsx';
import { formatDay } from '../../../src/lib/formatting.ts';
import { fakeSupabase } from '../support/fake-supabase.ts';

vi.mock('../../../src/lib/supabase-client.ts', async () => ({ supabase: (await import('../support/fake-supabase.ts')).fakeSupabase.client }));

function renderCard() {
  const queryClient = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <AdminUtilitiesCard />
      <Toaster />
    </QueryClientProvider>,
  );
}

describe('utilities card', () => {
  beforeEach(() => fakeSupabase.reset());
  afterEach(() => cleanup());

  it('counts yesterday in UTC, across month and year ends', () => {
    expect(yesterdayUtc(new Date('2026-03-01T00:30:00Z'))).toBe('2026-02-28');
    expect(yesterdayUtc(new Date('2027-01-01T23:59:00Z'))).toBe('2026-12-31');
    expect(yesterdayUtc(new Date('2026-11-22T01:00:00+03:00'))).toBe('2026-11-20');
  });

  it("runs tag-yesterdays-ads for yesterday by default and shows its message under 'Success'", async () => {
    fakeSupabase.onFunction('tag-yesterdays-ads', (body) => ({
      data: { message: `Tagged 4 ad(s) uploaded on ${(body as { day: string }).day} with Black Friday.`, tagged: 4 },
      error: null,
    }));
    renderCard();
    const day = screen.getByLabelText('Day') as HTMLInputElement;
    expect(day.value).toBe(new Date(Date.now() - 86_400_000).toISOString().slice(0, 10));
    fireEvent.click(screen.getByRole('button', { name: 'Tag Ads' }));
    await screen.findByText('Success');
    expect(screen.getByText(`Tagged 4 ad(s) uploaded on ${formatDay(day.value)} with Black Friday.`)).toBeTruthy();
    expect(fakeSupabase.functionCalls).toEqual([{ name: 'tag-yesterdays-ads', body: { day: day.value } }]);
  });

  it('runs it for the day the admin chooses', async () => {
    fakeSupabase.onFunction('tag-yesterdays-ads', () => ({ data: { message: 'Tagged 0 ad(s) uploaded on 2026-11-02 with Black Friday.', tagged: 0 }, error: null }));
    renderCard();
    fireEvent.change(screen.getByLabelText('Day'), { target: { value: '2026-11-02' } });
    fireEvent.click(screen.getByRole('button', { name: 'Tag Ads' }));
    // The day as every screen writes dates (the viewer here reads en-US), not the function's YYYY-MM-DD.
    await screen.findByText('Tagged 0 ad(s) uploaded on Nov 2, 2026 with Black Friday.');
    expect(fakeSupabase.functionCalls[0]!.body).toEqual({ day: '2026-11-02' });
  });

  it("shows 'Tagging failed' with our sentence for the function's refusal, not the function's text", async () => {
    fakeSupabase.onFunction('tag-yesterdays-ads', () => ({
      data: null,
      error: Object.assign(new Error('Edge Function returned a non-2xx status code'), {
        context: new Response(JSON.stringify({ error: { code: 'admin_required', message: 'This operation requires admin privileges.' } }), { status: 403 }),
      }) as never,
    }));
    renderCard();
    fireEvent.click(screen.getByRole('button', { name: 'Tag Ads' }));
    await screen.findByText('Tagging failed');
    expect(screen.getByText('Only an admin can do this.')).toBeTruthy();
    expect(screen.queryByText('This operation requires admin privileges.')).toBeNull();
  });
});
