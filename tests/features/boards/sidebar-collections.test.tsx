// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BoardsLiveUpdates } from '../../../src/features/boards/components/boards-live-updates.tsx';
import { SidebarCollections } from '../../../src/features/boards/components/sidebar-collections.tsx';
import { SessionProvider } from '../../../src/lib/auth-session.tsx';
import { fakeSupabase, sessionFor, type Result } from '../support/fake-supabase.ts';
import { setUpAppTests } from '../support/render-app.tsx';
import { BoardBackend, USER_ID } from './board-backend.ts';

vi.mock('../../../src/lib/supabase-client.ts', async () => ({ supabase: (await import('../support/fake-supabase.ts')).fakeSupabase.client }));

let backend: BoardBackend;

function renderSidebar(collapsed = false) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [{ path: '*', element: <SessionProvider><SidebarCollections collapsed={collapsed} /><BoardsLiveUpdates /></SessionProvider> }],
    { initialEntries: ['/library'] },
  );
  return render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

const section = () => screen.findByRole('region', { name: 'Collections' });

describe('the sidebar Collections list', () => {
  setUpAppTests();
  beforeEach(() => {
    backend = new BoardBackend();
    fakeSupabase.session = sessionFor(USER_ID);
  });

  it("is open by default, says 'Loading...' first, then lists the boards nested, Favorites hidden, each linking to its page", async () => {
    let answer: (value: Result) => void = () => {};
    const skincare = backend.addBoard('Skincare');
    const openers = backend.addBoard('Openers', skincare);
    backend.addBoard('favorites');
    fakeSupabase.onTable('user_collections', () => new Promise<Result>((resolve) => (answer = resolve)));
    renderSidebar();
    expect(await within(await section()).findByText('Loading...')).toBeTruthy();
    expect(within(await section()).getByRole('button', { name: 'Collections' }).getAttribute('aria-expanded')).toBe('true');

    await act(async () => answer({ data: backend.boards, error: null }));
    const links = await within(await section()).findAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Skincare', `/collection/${skincare}`],
      ['Openers', `/collection/${openers}`],
    ]);
    // The sub-board sits inside its parent's item, indented.
    expect(links[0]!.closest('li')!.contains(links[1]!)).toBe(true);
    expect((links[1]!.parentElement as HTMLElement).style.paddingLeft).toBe('12px');
  });

  it('collapses and opens again', async () => {
    backend.addBoard('Skincare');
    renderSidebar();
    await within(await section()).findByRole('link', { name: 'Skincare' });
    fireEvent.click(within(await section()).getByRole('button', { name: 'Collections' }));
    expect(within(await section()).queryByRole('link', { name: 'Skincare' })).toBeNull();
    fireEvent.click(within(await section()).getByRole('button', { name: 'Collections' }));
    expect(within(await section()).getByRole('link', { name: 'Skincare' })).toBeTruthy();
  });

  it('says when there are no collections yet', async () => {
    renderSidebar();
    expect(await within(await section()).findByText('No collections yet.')).toBeTruthy();
  });

  it('follows board changes made elsewhere through Realtime, without a reload', async () => {
    backend.addBoard('Skincare');
    renderSidebar();
    await within(await section()).findByRole('link', { name: 'Skincare' });
    await waitFor(() => expect(fakeSupabase.realtime.filter((entry) => !entry.removed).map((entry) => entry.filter)).toEqual([
      { event: '*', schema: 'public', table: 'user_collections' },
    ]));

    const added = backend.addBoard('Added in another tab');
    act(() => fakeSupabase.emitRealtime('user_collections', { eventType: 'INSERT', new: { id: added } }));
    expect(await within(await section()).findByRole('link', { name: 'Added in another tab' })).toBeTruthy();

    backend.boards = backend.boards.filter((board) => board.name !== 'Skincare');
    act(() => fakeSupabase.emitRealtime('user_collections', { eventType: 'DELETE', old: {} }));
    const list = await section();
    await waitFor(() => expect(within(list).queryByRole('link', { name: 'Skincare' })).toBeNull());
  });

  it('shows each top-level board as its initial when the sidebar is collapsed, and nothing when signed out', async () => {
    backend.addBoard('Skincare');
    const { unmount } = renderSidebar(true);
    const link = await screen.findByRole('link', { name: 'Skincare' });
    expect(link.textContent).toBe('S');
    unmount();

    fakeSupabase.session = null;
    const view = renderSidebar();
    await act(async () => {});
    expect(view.container.textContent).toBe('');
    expect(fakeSupabase.realtime.filter((entry) => !entry.removed)).toEqual([]);
  });
});
