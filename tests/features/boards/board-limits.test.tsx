// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { toast as sonner } from 'sonner';
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
  parentGone: { code: 'PT404', details: 'parent_board_not_found', message: 'Parent board not found' },
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
  parentGone: 'That board could not be found. It may have been deleted.',
  fallback: 'Something went wrong. Please try again.',
};

function expectNoServerText() {
  const page = document.body.textContent ?? '';
  for (const text of ['at most', 'violates', 'Failing row', 'OB00', 'user_collections', '_reached', 'Parent board']) expect(page).not.toContain(text);
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
    // Sonner replays the toasts still up to a new outlet: each test starts with none from the one before.
    sonner.dismiss();
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

  it('offers no sub-board inside a board at the fifth level: its + says how deep boards nest and sends nothing', async () => {
    let parent: string | null = null;
    for (const level of [1, 2, 3, 4, 5]) parent = backend.addBoard(`Level ${level}`, parent);
    renderApp('/library');
    const panel = await openPanel();
    const fourth = within(panel).getByRole('button', { name: 'New sub-board in Level 4' });
    expect(fourth.getAttribute('aria-disabled')).toBeNull();
    const fifth = within(panel).getByRole('button', { name: 'New sub-board in Level 5' });
    expect(fifth.getAttribute('aria-disabled')).toBe('true');
    expect(fifth.getAttribute('title')).toBe(SENTENCES.depth);
    fireEvent.click(fifth);
    expect(await screen.findByText(SENTENCES.depth)).toBeTruthy();
    expect(screen.getByText('Create failed')).toBeTruthy();
    expect(within(panel).queryByRole('textbox', { name: /^Name of the new sub-board/ })).toBeNull();
    expect(fakeSupabase.writesTo('user_collections')).toEqual([]);
  });

  for (const [refusal, sentence, why] of [
    ['depth', SENTENCES.depth, 'the tree grew deeper in another tab'],
    ['boards', SENTENCES.boards, 'the user is at the cap of boards'],
    ['parentGone', SENTENCES.parentGone, 'the board was deleted in another tab'],
  ] as const) {
    it(`says our sentence when the database refuses a sub-board made in the panel because ${why}, and keeps the name for another try`, async () => {
      const skincare = backend.addBoard('Skincare');
      renderApp('/library');
      const panel = await openPanel();
      fireEvent.click(within(panel).getByRole('button', { name: 'New sub-board in Skincare' }));
      const field = within(panel).getByRole('textbox', { name: 'Name of the new sub-board in Skincare' });
      fireEvent.change(field, { target: { value: 'Serums' } });
      backend.refuseNext = refusals[refusal];
      fireEvent.keyDown(field, { key: 'Enter' });
      expect(await screen.findByText('Create failed')).toBeTruthy();
      expect(screen.getByText(sentence)).toBeTruthy();
      expectNoServerText();
      expect(backend.boards.map((board) => board.name)).toEqual(['Favorites', 'Skincare']);
      expect(fakeSupabase.writesTo('user_collections').map((write) => (write.payload as { parent_id: string }).parent_id)).toEqual([skincare]);
      const kept = within(panel).getByRole('textbox', { name: 'Name of the new sub-board in Skincare' }) as HTMLInputElement;
      expect(kept.value).toBe('Serums');
      expect(document.activeElement).toBe(kept);
      expect(within(panel).queryByRole('button', { name: 'Confirm' })).toBeNull();
    });
  }

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
