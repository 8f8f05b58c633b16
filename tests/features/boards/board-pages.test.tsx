// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makeAd } from '../support/ad-fixtures.ts';
import { fakeSupabase, sessionFor, type Result } from '../support/fake-supabase.ts';
import { renderApp, setUpAppTests } from '../support/render-app.tsx';
import { BoardBackend, FAVORITES_ID, USER_ID } from './board-backend.ts';

vi.mock('../../../src/lib/supabase-client.ts', async () => ({ supabase: (await import('../support/fake-supabase.ts')).fakeSupabase.client }));

let backend: BoardBackend;
const main = () => screen.getByRole('main');
const cardIds = () => within(main()).queryAllByTestId('ad-card').map((card) => card.getAttribute('data-ad-id'));

describe('the Favorites page', () => {
  setUpAppTests();
  beforeEach(() => {
    backend = new BoardBackend();
    fakeSupabase.session = sessionFor(USER_ID);
  });

  it('shows 8 skeletons, then the saved ads newest saved first, with the spec texts and never a delete button', async () => {
    const older = makeAd();
    const newer = makeAd({ brand_name: 'Northwind' });
    backend.save(FAVORITES_ID, older);
    backend.save(FAVORITES_ID, newer);
    let answer: (value: Result) => void = () => {};
    const served = { data: { ads: [newer, older], next_cursor: null }, error: null };
    fakeSupabase.onRpc('list_collection_ads', () => new Promise<Result>((resolve) => (answer = resolve)));
    renderApp('/favorites');

    expect(await screen.findByRole('heading', { name: 'Favorites', level: 1 })).toBeTruthy();
    expect(screen.getByText('Your saved ads, ready for quick reference and inspiration.')).toBeTruthy();
    await waitFor(() => expect(within(main()).getAllByTestId('ad-skeleton')).toHaveLength(8));
    expect(document.title).toBe('Favorites – Saved Ads Library');

    // The skeletons can show before the page asks for its ads: answer only the call that was made.
    await waitFor(() => expect(fakeSupabase.callsOf('list_collection_ads')).toHaveLength(1));
    await act(async () => answer(served));
    await waitFor(() => expect(cardIds()).toEqual([newer.id, older.id]));
    expect(fakeSupabase.callsOf('list_collection_ads')).toEqual([{ p_collection_id: FAVORITES_ID, p_cursor: null }]);
    expect(within(main()).queryByRole('button', { name: /delete|remove/i })).toBeNull();
  });

  it('says how to save when there are no favorites yet', async () => {
    renderApp('/favorites');
    expect(await screen.findByText('No favorites yet. Tap the heart inside the bookmark menu to save an ad here.')).toBeTruthy();
  });

  it('sends a signed-out visitor to sign in and back', async () => {
    fakeSupabase.session = null;
    const app = renderApp('/favorites');
    await waitFor(() => expect(app.currentUrl()).toBe('/auth/signin?redirect=%2Ffavorites'));
  });
});

describe('the collection page', () => {
  setUpAppTests();
  beforeEach(() => {
    backend = new BoardBackend();
    fakeSupabase.session = sessionFor(USER_ID);
  });

  it("lists the board's ads and names it in the empty text", async () => {
    const board = backend.addBoard('Skincare hooks');
    renderApp(`/collection/${board}`);
    expect(await screen.findByRole('heading', { name: 'Skincare hooks', level: 1 })).toBeTruthy();
    expect(await screen.findByText('No ads saved in Skincare hooks.')).toBeTruthy();
  });

  it('removes an ad only after the confirmation, and says Removed', async () => {
    const board = backend.addBoard('Skincare hooks');
    const ad = makeAd();
    backend.save(board, ad);
    renderApp(`/collection/${board}`);
    await waitFor(() => expect(cardIds()).toEqual([ad.id]));

    fireEvent.click(within(main()).getByRole('button', { name: 'Remove from collection' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Remove this ad from this collection?')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fakeSupabase.callsOf('save_ad_boards')).toEqual([]);

    fireEvent.click(within(main()).getByRole('button', { name: 'Remove from collection' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Ad removed from collection.')).toBeTruthy();
    expect(screen.getByText('Removed')).toBeTruthy();
    expect(fakeSupabase.callsOf('save_ad_boards')).toEqual([{ p_ad_id: ad.id, p_add: [], p_remove: [board] }]);
    expect(await screen.findByText('No ads saved in Skincare hooks.')).toBeTruthy();
  });

  it("treats a board that is not the user's as not found, and shows no ads of it", async () => {
    const foreign = '99999999-9999-4999-8999-999999999999';
    // Even if the server listed it, the page shows only the user's own boards.
    fakeSupabase.onRpc('list_collection_ads', () => ({ data: { ads: [makeAd()], next_cursor: null }, error: null }));
    renderApp(`/collection/${foreign}`);
    expect(await screen.findByText('This collection could not be found.')).toBeTruthy();
    expect(screen.queryAllByTestId('ad-card')).toEqual([]);
  });

  it('is not found when the server says the board is not the caller’s', async () => {
    const board = backend.addBoard('Skincare hooks');
    fakeSupabase.onRpc('list_collection_ads', () => ({ data: null, error: { message: 'Board not found', code: 'PT404', details: 'board_not_found' } }));
    renderApp(`/collection/${board}`);
    expect(await screen.findByText('This collection could not be found.')).toBeTruthy();
  });

  it('sends a signed-out visitor to plain sign-in', async () => {
    fakeSupabase.session = null;
    const app = renderApp(`/collection/${backend.addBoard('Skincare hooks')}`);
    await waitFor(() => expect(app.currentUrl()).toBe('/auth/signin'));
  });

  it('renames a board with a trimmed name', async () => {
    const board = backend.addBoard('Skincare hooks');
    renderApp(`/collection/${board}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Rename' }));
    fireEvent.change(screen.getByLabelText('New name'), { target: { value: '  Skincare openers ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('heading', { name: 'Skincare openers', level: 1 })).toBeTruthy();
    expect(fakeSupabase.writesTo('user_collections').map((write) => [write.action, write.payload, write.filters])).toEqual([
      ['update', { name: 'Skincare openers' }, [['id', 'eq', board]]],
    ]);
  });

  it('moves a board under another board or to the top, never under itself or its sub-boards', async () => {
    const top = backend.addBoard('Skincare');
    const child = backend.addBoard('Openers', top);
    backend.addBoard('Under 3 seconds', child);
    const other = backend.addBoard('Coffee');
    renderApp(`/collection/${child}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Move' }));
    const select = screen.getByLabelText('Move under') as HTMLSelectElement;
    expect([...select.options].map((option) => option.textContent!.trim())).toEqual(['Top level', 'Coffee', 'Skincare']);
    expect(select.value).toBe(top);
    fireEvent.change(select, { target: { value: other } });
    fireEvent.click(within(select.closest('form')!).getByRole('button', { name: 'Move' }));
    await waitFor(() => expect(backend.boards.find((board) => board.id === child)?.parent_id).toBe(other));
    expect(fakeSupabase.writesTo('user_collections').map((write) => write.payload)).toEqual([{ parent_id: other }]);
  });

  it('deletes a top-level board after the browser confirmation, asking whether its sub-boards go too', async () => {
    const top = backend.addBoard('Skincare');
    const child = backend.addBoard('Openers', top);
    const confirm = vi.spyOn(window, 'confirm');
    const app = renderApp(`/collection/${top}`);
    await screen.findByRole('heading', { name: 'Skincare', level: 1 });

    confirm.mockReturnValueOnce(false);
    fireEvent.click(screen.getByRole('button', { name: 'Delete board' }));
    expect(confirm).toHaveBeenLastCalledWith('Delete "Skincare"? This cannot be undone.');
    expect(fakeSupabase.callsOf('delete_board')).toEqual([]);

    // OK to the deletion, Cancel to deleting the sub-board too: it moves up.
    confirm.mockReturnValueOnce(true).mockReturnValueOnce(false);
    fireEvent.click(screen.getByRole('button', { name: 'Delete board' }));
    expect(confirm).toHaveBeenLastCalledWith(
      'Also delete its 1 sub-board(s) and the ads saved in them? Press Cancel to keep them: they move up one level.',
    );
    await waitFor(() => expect(fakeSupabase.callsOf('delete_board')).toEqual([{ p_id: top, p_move_children_up: true }]));
    await waitFor(() => expect(app.currentUrl()).toBe('/favorites'));
    expect(backend.boards.find((board) => board.id === child)?.parent_id).toBeNull();
  });

  it('deletes a sub-board with its own sub-boards when the second confirmation says so, and goes to its parent', async () => {
    const top = backend.addBoard('Skincare');
    const child = backend.addBoard('Openers', top);
    const grandchild = backend.addBoard('Under 3 seconds', child);
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const app = renderApp(`/collection/${child}`);
    await screen.findByRole('heading', { name: 'Openers', level: 1 });
    fireEvent.click(screen.getByRole('button', { name: 'Delete board' }));
    await waitFor(() => expect(fakeSupabase.callsOf('delete_board')).toEqual([{ p_id: child, p_move_children_up: false }]));
    await waitFor(() => expect(app.currentUrl()).toBe(`/collection/${top}`));
    expect(backend.boards.map((board) => board.id)).not.toContain(grandchild);
    expect(await screen.findByText('"Openers" deleted.')).toBeTruthy();
  });

  it('makes a sub-board under the board', async () => {
    const top = backend.addBoard('Skincare');
    renderApp(`/collection/${top}`);
    fireEvent.click(await screen.findByRole('button', { name: 'New sub-board' }));
    fireEvent.change(screen.getByPlaceholderText('Sub-board name'), { target: { value: 'Openers' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    const subBoards = await screen.findByRole('navigation', { name: 'Sub-boards' });
    expect(within(subBoards).getByRole('link', { name: 'Openers' })).toBeTruthy();
    expect(fakeSupabase.writesTo('user_collections').map((write) => write.payload)).toEqual([
      { name: 'Openers', parent_id: top, is_system: false, user_id: USER_ID },
    ]);
  });
});
