// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makeAd } from '../support/ad-fixtures.ts';
import { fakeSupabase, sessionFor, type Result } from '../support/fake-supabase.ts';
import { renderApp, setUpAppTests } from '../support/render-app.tsx';
import { BoardBackend, FAVORITES_ID, USER_ID } from './board-backend.ts';

vi.mock('../../../src/lib/supabase-client.ts', async () => ({ supabase: (await import('../support/fake-supabase.ts')).fakeSupabase.client }));

const ad = makeAd({ id: '77777777-7777-4777-8777-777777777777' });
let backend: BoardBackend;

/** The errors as rest/v1 answers them when the database refuses a write over a cap (migration board_row_caps). */
const refusals = {
  boards: { code: 'OB001', details: 'board_limit_reached', message: 'A user can have at most 500 boards' },
  depth: { code: 'OB002', details: 'board_depth_limit_reached', message: 'Boards can be nested at most 5 levels deep' },
  ads: { code: 'OB003', details: 'board_ads_limit_reached', message: 'A board can hold at most 5000 ads' },
  favorites: { code: 'OB004', details: 'favorites_limit_reached', message: 'A user can have at most 10000 favorites' },
  nameLength: {
    code: '23514',
    details: 'Failing row contains (3f0c…, 4444…, xxxxxxxx…, null, f, null, 2026-11-26 10:00:00+00, 2026-11-26 10:00:00+00).',
    message: 'new row for relation "user_collections" violates check constraint "user_collections_name_length"',
  },
} satisfies Record<string, NonNullable<Result['error']>>;

/** Our sentences, as the spec's toasts carry them. */
const SENTENCES = {
  boards: 'You can have up to 500 boards. Delete a board to make room for a new one.',
  depth: 'Boards can be nested up to 5 levels deep. Choose a board higher up.',
  ads: 'A board can hold up to 5,000 ads. Remove some, or save this ad to another board.',
  favorites: 'You can keep up to 10,000 favorites. Remove some to save new ones.',
  nameLength: 'Board names can be up to 100 characters long.',
  fallback: 'Something went wrong. Please try again.',
};

function expectNoServerText() {
  const page = document.body.textContent ?? '';
  for (const text of ['at most', 'violates', 'Failing row', 'OB00', 'user_collections', '_reached']) expect(page).not.toContain(text);
}

async function openPanel() {
  const card = await screen.findByTestId('ad-card');
  fireEvent.click(within(card).getByRole('button', { name: 'Add to board' }));
  const panel = await screen.findByTestId('add-to-board-popover');
  await waitFor(() => expect(within(panel).queryByText('Loading boards...')).toBeNull());
  return panel;
}

async function createInPanel(panel: HTMLElement, name: string) {
  fireEvent.click(within(panel).getByRole('button', { name: 'Create Board' }));
  const input = within(panel).getByPlaceholderText('Board name');
  fireEvent.change(input, { target: { value: name } });
  fireEvent.keyDown(input, { key: 'Enter' });
}

describe('the caps on boards, as the SPA words them', () => {
  setUpAppTests();
  beforeEach(() => {
    backend = new BoardBackend();
    fakeSupabase.onRpc('list_ads', () => ({ data: { ads: [ad], next_cursor: null }, error: null }));
    fakeSupabase.onRpc('get_ad', () => ({ data: ad, error: null }));
    fakeSupabase.session = sessionFor(USER_ID);
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });

  it('says how many boards a user can have when a new board is refused at the cap, not what the server said', async () => {
    renderApp('/library');
    const panel = await openPanel();
    backend.refuseNext = refusals.boards;
    await createInPanel(panel, 'One too many');
    expect(await screen.findByText('Create failed')).toBeTruthy();
    expect(screen.getByText(SENTENCES.boards)).toBeTruthy();
    expectNoServerText();
    expect(backend.boards.map((board) => board.name)).toEqual(['Favorites']);
  });

  it('says how deep boards nest when a sub-board would be one level too deep', async () => {
    const board = backend.addBoard('Level 5');
    renderApp(`/collection/${board}`);
    fireEvent.click(await screen.findByRole('button', { name: 'New sub-board' }));
    fireEvent.change(screen.getByPlaceholderText('Sub-board name'), { target: { value: 'Level 6' } });
    backend.refuseNext = refusals.depth;
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText(SENTENCES.depth)).toBeTruthy();
    expectNoServerText();
  });

  it('says how deep boards nest when a move would take sub-boards too deep', async () => {
    const deep = backend.addBoard('Deep');
    const moving = backend.addBoard('Moving');
    renderApp(`/collection/${moving}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Move' }));
    const select = screen.getByLabelText('Move under') as HTMLSelectElement;
    fireEvent.change(select, { target: { value: deep } });
    backend.refuseNext = refusals.depth;
    fireEvent.click(within(select.closest('form')!).getByRole('button', { name: 'Move' }));
    expect(await screen.findByText('Move failed')).toBeTruthy();
    expect(screen.getAllByText(SENTENCES.depth).length).toBeGreaterThan(0);
    expectNoServerText();
  });

  it('says how many ads a board holds when saving to a full board is refused, and keeps the choice', async () => {
    backend.addBoard('Full board');
    renderApp('/library');
    const panel = await openPanel();
    fireEvent.click(within(panel).getByRole('checkbox', { name: 'Full board' }));
    backend.refuseNext = refusals.ads;
    fireEvent.click(within(panel).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Save failed')).toBeTruthy();
    expect(screen.getByText(SENTENCES.ads)).toBeTruthy();
    expectNoServerText();
    expect(within(panel).getByRole('checkbox', { name: 'Full board' }).getAttribute('aria-checked')).toBe('true');
    expect(backend.boardsHolding(ad.id)).toEqual([]);
  });

  it('says how many favorites a user can keep when the heart on the ad detail is refused', async () => {
    renderApp(`/ads/${ad.id}`);
    const detail = await screen.findByTestId('ad-detail');
    const heart = await within(detail).findByRole('button', { name: 'Add to favorites' });
    backend.refuseNext = refusals.favorites;
    fireEvent.click(heart);
    expect(await screen.findByText(SENTENCES.favorites)).toBeTruthy();
    expectNoServerText();
    expect(within(detail).getByRole('button', { name: 'Add to favorites' })).toBeTruthy();
    expect(backend.boardsHolding(ad.id)).not.toContain(FAVORITES_ID);
  });

  it('says how long a board name may be before it sends a longer one', async () => {
    renderApp('/library');
    const panel = await openPanel();
    await createInPanel(panel, 'x'.repeat(101));
    expect(await screen.findByText(SENTENCES.nameLength)).toBeTruthy();
    expect(fakeSupabase.writesTo('user_collections')).toEqual([]);
  });

  it('says how long a board name may be when the server refuses one, not the check constraint', async () => {
    const board = backend.addBoard('Short');
    renderApp(`/collection/${board}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Rename' }));
    fireEvent.change(screen.getByLabelText('New name'), { target: { value: 'A name the server finds too long' } });
    backend.refuseNext = refusals.nameLength;
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Rename failed')).toBeTruthy();
    expect(screen.getAllByText(SENTENCES.nameLength).length).toBeGreaterThan(0);
    expectNoServerText();
  });

  it('says a sentence of its own for an error it has no words for, never the server text', async () => {
    const board = backend.addBoard('Short');
    renderApp(`/collection/${board}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Rename' }));
    fireEvent.change(screen.getByLabelText('New name'), { target: { value: 'Renamed' } });
    backend.refuseNext = { code: 'XX000', message: 'internal error at /srv/app/local/rest/rest-api.ts:406' };
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(SENTENCES.fallback)).toBeTruthy();
    expect(document.body.textContent).not.toContain('rest-api.ts');
  });
});
