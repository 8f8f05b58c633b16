// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makeAd } from '../support/ad-fixtures.ts';
import { fakeSupabase, sessionFor } from '../support/fake-supabase.ts';
import { renderApp, setUpAppTests } from '../support/render-app.tsx';
import { BoardBackend, FAVORITES_ID, USER_ID } from './board-backend.ts';

vi.mock('../../../src/lib/supabase-client.ts', async () => ({ supabase: (await import('../support/fake-supabase.ts')).fakeSupabase.client }));

const ad = makeAd({ id: '66666666-6666-4666-8666-666666666666' });
let backend: BoardBackend;

function serveLibrary() {
  fakeSupabase.onRpc('list_ads', () => ({ data: { ads: [ad], next_cursor: null }, error: null }));
  fakeSupabase.onRpc('get_ad', () => ({ data: ad, error: null }));
}

async function openPanel() {
  const card = await screen.findByTestId('ad-card');
  fireEvent.click(within(card).getByRole('button', { name: 'Add to board' }));
  const panel = await screen.findByTestId('add-to-board-popover');
  await waitFor(() => expect(within(panel).queryByText('Loading boards...')).toBeNull());
  return panel;
}

const box = (panel: HTMLElement, name: string) => within(panel).getByRole('checkbox', { name });

describe('the add-to-board panel', () => {
  setUpAppTests();
  beforeEach(() => {
    backend = new BoardBackend();
    serveLibrary();
    fakeSupabase.session = sessionFor(USER_ID);
  });

  it('sends a signed-out visitor who presses save to sign in with next', async () => {
    fakeSupabase.session = null;
    const app = renderApp('/library?brand=Lumora');
    const card = await screen.findByTestId('ad-card');
    fireEvent.click(within(card).getByRole('button', { name: 'Add to board' }));
    await waitFor(() => expect(app.currentUrl()).toBe(`/auth/signin?next=${encodeURIComponent('/library?brand=Lumora')}`));
  });

  it('is a 320 by 500 popover with the spec texts, a Favorites row and the nested tree indented 20 px a level', async () => {
    const top = backend.addBoard('Skincare');
    const middle = backend.addBoard('Openers', top);
    backend.addBoard('Under 3 seconds', middle);
    backend.addBoard('favorites'); // a user board named so stays a board in the panel
    renderApp('/library');
    const panel = await openPanel();
    expect(panel.style.width).toBe('320px');
    expect(panel.style.height).toBe('500px');
    expect(within(panel).getByRole('heading', { name: 'Add to board' })).toBeTruthy();
    expect(within(panel).getByRole('button', { name: 'Close' })).toBeTruthy();
    expect(within(panel).getByPlaceholderText('Search boards...')).toBeTruthy();
    expect(within(panel).queryByRole('button', { name: 'Confirm' })).toBeNull();
    expect(box(panel, 'Favorites')).toBeTruthy();
    const rows = within(panel).getAllByTestId('board-row');
    expect(rows.map((row) => [row.textContent, row.style.paddingLeft])).toEqual([
      ['favorites', '0px'],
      ['Skincare', '0px'],
      ['Openers', '20px'],
      ['Under 3 seconds', '40px'],
    ]);
    // The Favorites system board is its own row, never in the tree.
    expect(within(panel).getAllByRole('checkbox', { name: 'Favorites' })).toHaveLength(1);

    fireEvent.click(within(panel).getByRole('button', { name: 'Collapse Skincare' }));
    expect(within(panel).queryByText('Openers')).toBeNull();
    fireEvent.click(within(panel).getByRole('button', { name: 'Expand Skincare' }));
    expect(within(panel).getByText('Under 3 seconds')).toBeTruthy();
  });

  it("searches boards by name regardless of case and says 'No boards found'", async () => {
    backend.addBoard('Skincare');
    backend.addBoard('Coffee');
    renderApp('/library');
    const panel = await openPanel();
    const search = within(panel).getByPlaceholderText('Search boards...');
    fireEvent.change(search, { target: { value: 'SKIN' } });
    expect(within(panel).getAllByTestId('board-row').map((row) => row.textContent)).toEqual(['Skincare']);
    fireEvent.change(search, { target: { value: 'tea' } });
    expect(within(panel).getByText('No boards found')).toBeTruthy();
    fireEvent.change(search, { target: { value: '' } });
    expect(within(panel).getAllByTestId('board-row')).toHaveLength(2);
  });

  it('keeps toggles pending, shows Confirm only with changes, and saves every add and remove in one call, then closes', async () => {
    const skincare = backend.addBoard('Skincare');
    const coffee = backend.addBoard('Coffee');
    backend.save(coffee, ad);
    renderApp('/library');
    const panel = await openPanel();
    expect(within(panel).getByRole('heading', { name: 'Ad saved ✓' })).toBeTruthy();
    expect(box(panel, 'Coffee').getAttribute('aria-checked')).toBe('true');

    fireEvent.click(box(panel, 'Skincare'));
    expect(within(panel).getByRole('button', { name: 'Confirm' })).toBeTruthy();
    expect(within(panel).getByRole('button', { name: 'Cancel' })).toBeTruthy();
    // Toggling back leaves nothing pending.
    fireEvent.click(box(panel, 'Skincare'));
    expect(within(panel).queryByRole('button', { name: 'Confirm' })).toBeNull();

    fireEvent.click(box(panel, 'Skincare'));
    fireEvent.click(box(panel, 'Coffee'));
    fireEvent.click(box(panel, 'Favorites'));
    expect(fakeSupabase.callsOf('save_ad_boards')).toEqual([]);
    fireEvent.click(within(panel).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.queryByTestId('add-to-board-popover')).toBeNull());
    expect(fakeSupabase.callsOf('save_ad_boards')).toEqual([{ p_ad_id: ad.id, p_add: [skincare, FAVORITES_ID], p_remove: [coffee] }]);
    expect(backend.boardsHolding(ad.id)).toEqual([FAVORITES_ID, skincare].sort());

    const reopened = await openPanel();
    expect(box(reopened, 'Skincare').getAttribute('aria-checked')).toBe('true');
    expect(box(reopened, 'Coffee').getAttribute('aria-checked')).toBe('false');
  });

  it('discards pending changes on Cancel', async () => {
    backend.addBoard('Skincare');
    renderApp('/library');
    const panel = await openPanel();
    fireEvent.click(box(panel, 'Skincare'));
    fireEvent.click(within(panel).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByTestId('add-to-board-popover')).toBeNull());
    const reopened = await openPanel();
    expect(box(reopened, 'Skincare').getAttribute('aria-checked')).toBe('false');
    expect(within(reopened).getByRole('heading', { name: 'Add to board' })).toBeTruthy();
    expect(fakeSupabase.callsOf('save_ad_boards')).toEqual([]);
  });

  it('creates a board inline: trimmed, not empty, Enter confirms and selects it, Escape cancels without closing the panel', async () => {
    renderApp('/library');
    const panel = await openPanel();
    expect(within(panel).getByText('No boards yet')).toBeTruthy();

    fireEvent.click(within(panel).getByRole('button', { name: 'Create Board' }));
    let input = within(panel).getByPlaceholderText('Board name');
    fireEvent.change(input, { target: { value: 'Draft' } });
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(within(panel).queryByPlaceholderText('Board name')).toBeNull();
    expect(screen.getByTestId('add-to-board-popover')).toBeTruthy();

    fireEvent.click(within(panel).getByRole('button', { name: 'Create Board' }));
    input = within(panel).getByPlaceholderText('Board name');
    fireEvent.change(input, { target: { value: '   ' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(fakeSupabase.writesTo('user_collections')).toEqual([]);
    expect(within(panel).getByRole('alert').textContent).toBe('Collection name required');

    fireEvent.change(input, { target: { value: '  Holiday hooks  ' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    await waitFor(() => expect(box(panel, 'Holiday hooks').getAttribute('aria-checked')).toBe('true'));
    expect(fakeSupabase.writesTo('user_collections').map((write) => write.payload)).toEqual([
      { name: 'Holiday hooks', parent_id: null, is_system: false, user_id: USER_ID },
    ]);
    expect(within(panel).getByRole('button', { name: 'Confirm' })).toBeTruthy();
  });

  it('makes a sub-board inside any board from the + beside it: the field opens under that board, Enter makes it there, selected, and Confirm saves the ad in it', async () => {
    const skincare = backend.addBoard('Skincare');
    const openers = backend.addBoard('Openers', skincare);
    backend.addBoard('Coffee');
    renderApp('/library');
    const panel = await openPanel();
    // A collapsed board opens to show where its sub-board goes.
    fireEvent.click(within(panel).getByRole('button', { name: 'Collapse Skincare' }));
    expect(within(panel).queryByText('Openers')).toBeNull();
    fireEvent.click(within(panel).getByRole('button', { name: 'New sub-board in Skincare' }));
    expect(within(panel).getByText('Openers')).toBeTruthy();
    const field = within(panel).getByRole('textbox', { name: 'Name of the new sub-board in Skincare' });
    expect(field.getAttribute('placeholder')).toBe('Sub-board name');
    expect(document.activeElement).toBe(field);
    // Right under its board, before the board's own sub-boards.
    const skincareRow = box(panel, 'Skincare').closest('li')!;
    expect(within(skincareRow).getByTestId('new-sub-board').contains(field)).toBe(true);
    expect(within(panel).getAllByTestId('board-row').map((row) => row.textContent)).toEqual(['Coffee', 'Skincare', 'Openers']);

    fireEvent.change(field, { target: { value: '  Hooks under 3s  ' } });
    fireEvent.keyDown(field, { key: 'Enter' });
    await waitFor(() => expect(box(panel, 'Hooks under 3s').getAttribute('aria-checked')).toBe('true'));
    expect(fakeSupabase.writesTo('user_collections').map((write) => write.payload)).toEqual([
      { name: 'Hooks under 3s', parent_id: skincare, is_system: false, user_id: USER_ID },
    ]);
    expect(within(panel).queryByTestId('new-sub-board')).toBeNull();
    const rows = within(panel).getAllByTestId('board-row');
    expect(rows.map((row) => [row.textContent, row.dataset.depth, row.style.paddingLeft])).toEqual([
      ['Coffee', '0', '0px'],
      ['Skincare', '0', '0px'],
      ['Hooks under 3s', '1', '20px'],
      ['Openers', '1', '20px'],
    ]);
    // The keyboard goes on from the new board.
    await waitFor(() => expect(document.activeElement).toBe(box(panel, 'Hooks under 3s')));

    // A sub-board of a sub-board, the same way.
    fireEvent.click(within(panel).getByRole('button', { name: 'New sub-board in Openers' }));
    const deeper = within(panel).getByRole('textbox', { name: 'Name of the new sub-board in Openers' });
    fireEvent.change(deeper, { target: { value: 'Questions' } });
    fireEvent.keyDown(deeper, { key: 'Enter' });
    await waitFor(() => expect(box(panel, 'Questions').getAttribute('aria-checked')).toBe('true'));
    expect(fakeSupabase.writesTo('user_collections').map((write) => (write.payload as { parent_id: string }).parent_id)).toEqual([skincare, openers]);
    expect(within(panel).getAllByTestId('board-row').find((row) => row.textContent === 'Questions')!.style.paddingLeft).toBe('40px');

    expect(fakeSupabase.callsOf('save_ad_boards')).toEqual([]);
    fireEvent.click(within(panel).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.queryByTestId('add-to-board-popover')).toBeNull());
    const hooks = backend.boards.find((board) => board.name === 'Hooks under 3s')!.id;
    const questions = backend.boards.find((board) => board.name === 'Questions')!.id;
    expect(fakeSupabase.callsOf('save_ad_boards')).toEqual([{ p_ad_id: ad.id, p_add: [hooks, questions], p_remove: [] }]);
    expect(backend.boardsHolding(ad.id)).toEqual([hooks, questions].sort());
  });

  it("says 'Collection name required' for an empty sub-board name, sends nothing, and Escape cancels the field without closing the panel, back on its +", async () => {
    backend.addBoard('Skincare');
    renderApp('/library');
    const panel = await openPanel();
    const plus = within(panel).getByRole('button', { name: 'New sub-board in Skincare' });
    fireEvent.click(plus);
    const field = within(panel).getByRole('textbox', { name: 'Name of the new sub-board in Skincare' });
    fireEvent.change(field, { target: { value: '   ' } });
    fireEvent.keyDown(field, { key: 'Enter' });
    const alert = within(panel).getByRole('alert');
    expect(alert.textContent).toBe('Collection name required');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(field.getAttribute('aria-describedby')).toBe(alert.id);
    expect(fakeSupabase.writesTo('user_collections')).toEqual([]);
    // Typing a name clears the message.
    fireEvent.change(field, { target: { value: 'Draft' } });
    expect(within(panel).queryByRole('alert')).toBeNull();

    fireEvent.keyDown(field, { key: 'Escape' });
    expect(within(panel).queryByRole('textbox', { name: 'Name of the new sub-board in Skincare' })).toBeNull();
    expect(screen.getByTestId('add-to-board-popover')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(plus));
    expect(fakeSupabase.writesTo('user_collections')).toEqual([]);
    // Left empty for somewhere else in the panel, the field closes and the focus stays there.
    fireEvent.click(plus);
    const search = within(panel).getByPlaceholderText('Search boards...');
    act(() => search.focus());
    expect(within(panel).queryByRole('textbox', { name: 'Name of the new sub-board in Skincare' })).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(document.activeElement).toBe(search);
    // Favorites holds no boards: it has no +.
    expect(within(panel).getAllByRole('button', { name: /^New sub-board in / })).toHaveLength(1);
  });

  it('keeps a sub-board made while searching in sight, checked, though its name does not match', async () => {
    backend.addBoard('Skincare');
    backend.addBoard('Coffee');
    renderApp('/library');
    const panel = await openPanel();
    fireEvent.change(within(panel).getByPlaceholderText('Search boards...'), { target: { value: 'skin' } });
    fireEvent.click(within(panel).getByRole('button', { name: 'New sub-board in Skincare' }));
    const field = within(panel).getByRole('textbox', { name: 'Name of the new sub-board in Skincare' });
    fireEvent.change(field, { target: { value: 'Serums' } });
    fireEvent.keyDown(field, { key: 'Enter' });
    await waitFor(() => expect(box(panel, 'Serums').getAttribute('aria-checked')).toBe('true'));
    expect(within(panel).getAllByTestId('board-row').map((row) => row.textContent)).toEqual(['Skincare', 'Serums']);
  });

  it('leaves the memberships as they were when the save fails, says so, and keeps the choices for another try', async () => {
    const skincare = backend.addBoard('Skincare');
    const coffee = backend.addBoard('Coffee');
    backend.save(coffee, ad);
    renderApp('/library');
    const panel = await openPanel();
    fireEvent.click(box(panel, 'Skincare'));
    fireEvent.click(box(panel, 'Coffee'));
    backend.failNextSave = true;
    vi.spyOn(console, 'error').mockImplementation(() => {});
    fireEvent.click(within(panel).getByRole('button', { name: 'Confirm' }));

    expect(await screen.findByText('Save failed')).toBeTruthy();
    expect(screen.getByText('Nothing was changed. Please try again.')).toBeTruthy();
    expect(backend.boardsHolding(ad.id)).toEqual([coffee]);
    expect(screen.getByTestId('add-to-board-popover')).toBeTruthy();
    expect(box(panel, 'Skincare').getAttribute('aria-checked')).toBe('true');
    expect(box(panel, 'Coffee').getAttribute('aria-checked')).toBe('false');

    fireEvent.click(within(panel).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.queryByTestId('add-to-board-popover')).toBeNull());
    expect(backend.boardsHolding(ad.id)).toEqual([skincare]);
  });

  it('toggles the same Favorites as the heart on the ad detail', async () => {
    renderApp(`/ads/${ad.id}`);
    const detail = await screen.findByTestId('ad-detail');
    fireEvent.click(await within(detail).findByRole('button', { name: 'Add to favorites' }));
    await within(detail).findByRole('button', { name: 'Remove from favorites' });

    fireEvent.click(within(detail).getByRole('button', { name: 'Add to board' }));
    const panel = await screen.findByTestId('add-to-board-popover');
    await waitFor(() => expect(box(panel, 'Favorites').getAttribute('aria-checked')).toBe('true'));
    expect(within(panel).getByRole('heading', { name: 'Ad saved ✓' })).toBeTruthy();
    fireEvent.click(box(panel, 'Favorites'));
    fireEvent.click(within(panel).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.queryByTestId('add-to-board-popover')).toBeNull());
    expect(await within(detail).findByRole('button', { name: 'Add to favorites' })).toBeTruthy();
    expect(backend.boardsHolding(ad.id)).toEqual([]);
  });

  it('opens as a bottom sheet at 85% of the height under 768 px', async () => {
    const matchMedia = vi.fn((query: string) => ({ matches: query.includes('max-width: 767px'), media: query, addEventListener() {}, removeEventListener() {} }));
    vi.stubGlobal('matchMedia', matchMedia);
    try {
      backend.addBoard('Skincare');
      renderApp('/library');
      const card = await screen.findByTestId('ad-card');
      await act(async () => fireEvent.click(within(card).getByRole('button', { name: 'Add to board' })));
      const sheet = await screen.findByTestId('add-to-board-sheet');
      expect(sheet.className).toContain('h-[85dvh]');
      expect(await within(sheet).findByRole('checkbox', { name: 'Skincare' })).toBeTruthy();
      expect(screen.queryByTestId('add-to-board-popover')).toBeNull();

      // The sheet makes sub-boards too, and Escape in their field keeps the sheet open.
      fireEvent.click(within(sheet).getByRole('button', { name: 'New sub-board in Skincare' }));
      const field = within(sheet).getByRole('textbox', { name: 'Name of the new sub-board in Skincare' });
      fireEvent.keyDown(field, { key: 'Escape' });
      expect(screen.getByTestId('add-to-board-sheet')).toBeTruthy();
      fireEvent.click(within(sheet).getByRole('button', { name: 'New sub-board in Skincare' }));
      const again = within(sheet).getByRole('textbox', { name: 'Name of the new sub-board in Skincare' });
      fireEvent.change(again, { target: { value: 'Serums' } });
      fireEvent.keyDown(again, { key: 'Enter' });
      await waitFor(() => expect(within(sheet).getByRole('checkbox', { name: 'Serums' }).getAttribute('aria-checked')).toBe('true'));
      expect(backend.boards.find((board) => board.name === 'Serums')?.parent_id).toBe(backend.boards.find((board) => board.name === 'Skincare')!.id);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
