import { configure } from '@testing-library/react';
import type { Ad } from '../../../src/lib/ad-schema.ts';
import { fakeSupabase, type Result } from '../support/fake-supabase.ts';

// The machine running the tests may be busy: waiting longer changes no outcome, only how soon a failure shows.
configure({ asyncUtilTimeout: 5_000 });

export const USER_ID = '44444444-4444-4444-8444-444444444444';
export const FAVORITES_ID = '55555555-5555-4555-8555-555555555555';

export interface Board {
  id: string;
  name: string;
  parent_id: string | null;
  is_system: boolean;
  slug: string | null;
}

const ok = (data: unknown): Result => ({ data, error: null });

/**
 * The boards part of the backend as the component tests see it: the user's
 * boards and memberships in memory, answering the same table reads, writes and
 * RPCs as the database, with the database's all-or-nothing save.
 */
export class BoardBackend {
  boards: Board[] = [{ id: FAVORITES_ID, name: 'Favorites', parent_id: null, is_system: true, slug: 'favorites' }];
  /** Board id → ad ids, newest saved first. */
  items = new Map<string, string[]>();
  ads = new Map<string, Ad>();
  private sequence = 0;
  /** Set to make the next save fail as a dropped connection does. */
  failNextSave = false;
  /** Set to refuse the next board write or save with this error, as the database refuses one over a cap. */
  refuseNext: Result['error'] = null;

  constructor() {
    fakeSupabase.onTable('user_collections', (query) => {
      if (query.action !== 'select' && this.refuseNext) return this.refusal();
      if (query.action === 'insert') {
        const payload = query.payload as Omit<Board, 'id' | 'slug'>;
        this.sequence += 1;
        const board: Board = { id: `a0000000-0000-4000-8000-${this.sequence.toString().padStart(12, '0')}`, name: payload.name, parent_id: payload.parent_id, is_system: payload.is_system, slug: null };
        this.boards.push(board);
        return ok([board]);
      }
      if (query.action === 'update') {
        const id = query.filters.find(([column]) => column === 'id')?.[2];
        const board = this.boards.find((row) => row.id === id);
        if (!board) return ok([]);
        Object.assign(board, query.payload);
        return ok([board]);
      }
      const systemOnly = query.filters.some(([column, , value]) => column === 'is_system' && value === true);
      return ok(this.boards.filter((board) => !systemOnly || board.is_system).map((board) => ({ ...board })));
    });
    fakeSupabase.onTable('user_collection_items', (query) => {
      const adId = query.filters.find(([column]) => column === 'ad_id')?.[2] as string;
      return ok(this.boardsHolding(adId).map((collection_id) => ({ collection_id })));
    });
    fakeSupabase.onRpc('get_or_create_favorites_id', () => ok(FAVORITES_ID));
    fakeSupabase.onRpc('save_ad_boards', (args) => {
      if (this.refuseNext) return this.refusal();
      if (this.failNextSave) {
        this.failNextSave = false;
        // What supabase-js answers when the connection drops before a response.
        return { data: null, error: { message: 'TypeError: Failed to fetch', code: '' } };
      }
      const adId = args.p_ad_id as string;
      for (const id of (args.p_add as string[]) ?? []) this.items.set(id, [adId, ...(this.items.get(id) ?? []).filter((saved) => saved !== adId)]);
      for (const id of (args.p_remove as string[]) ?? []) this.items.set(id, (this.items.get(id) ?? []).filter((saved) => saved !== adId));
      return ok(this.boardsHolding(adId));
    });
    fakeSupabase.onRpc('list_collection_ads', (args) => {
      const id = args.p_collection_id as string;
      if (!this.boards.some((board) => board.id === id)) return { data: null, error: { message: 'Board not found', code: 'PT404', details: 'board_not_found' } };
      return ok({ ads: (this.items.get(id) ?? []).map((adId) => this.ads.get(adId)).filter(Boolean), next_cursor: null });
    });
    fakeSupabase.onRpc('delete_board', (args) => {
      const id = args.p_id as string;
      const board = this.boards.find((row) => row.id === id)!;
      if (args.p_move_children_up) for (const child of this.boards.filter((row) => row.parent_id === id)) child.parent_id = board.parent_id;
      const doomed = new Set([id]);
      for (let grew = true; grew; ) {
        grew = false;
        for (const row of this.boards) if (row.parent_id && doomed.has(row.parent_id) && !doomed.has(row.id)) doomed.add(row.id), (grew = true);
      }
      this.boards = this.boards.filter((row) => !doomed.has(row.id));
      return ok([...doomed]);
    });
  }

  private refusal(): Result {
    const error = this.refuseNext;
    this.refuseNext = null;
    return { data: null, error };
  }

  addBoard(name: string, parentId: string | null = null): string {
    this.sequence += 1;
    const id = `b1000000-0000-4000-8000-${this.sequence.toString().padStart(12, '0')}`;
    this.boards.push({ id, name, parent_id: parentId, is_system: false, slug: null });
    return id;
  }

  save(boardId: string, ad: Ad) {
    this.ads.set(ad.id, ad);
    this.items.set(boardId, [ad.id, ...(this.items.get(boardId) ?? [])]);
  }

  boardsHolding(adId: string): string[] {
    return [...this.items].filter(([, ads]) => ads.includes(adId)).map(([id]) => id).sort();
  }
}
