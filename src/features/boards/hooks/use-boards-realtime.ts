import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import * as z from 'zod/mini';
import { supabase } from '../../../lib/supabase-client.ts';
import { BOARDS_QUERY_KEY } from '../api/list-boards.ts';

let channelCount = 0;

/** What a board change says about the board: its id, in the new row (insert, update) or the old one (delete). */
const boardChangeSchema = z.object({
  new: z.optional(z.object({ id: z.optional(z.string()) })),
  old: z.optional(z.object({ id: z.optional(z.string()) })),
});

/**
 * Keeps the signed-in user's boards live in every tab and on every device:
 * Realtime sends each change of one of their boards (RLS: only their own),
 * and saving an ad to a board or removing it moves that board's updated_at
 * (migration board_items_touch_board). The boards list, the changed board's
 * ads (Favorites' page among them) and which boards hold an ad are read again.
 */
export function useBoardsRealtime(userId: string | null) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (userId === null) return;
    const refetchAll = () => {
      void queryClient.invalidateQueries({ queryKey: BOARDS_QUERY_KEY });
      void queryClient.invalidateQueries({ queryKey: ['ads', 'collection'] });
      void queryClient.invalidateQueries({ queryKey: ['collection-items'] });
    };
    channelCount += 1;
    const channel = supabase
      .channel(`user-collections-${userId}-${channelCount}`)
      .on('postgres_changes', { event: '*', schema: 'public', table: 'user_collections' }, (payload) => {
        const change = boardChangeSchema.safeParse(payload);
        const boardId = change.success ? (change.data.new?.id ?? change.data.old?.id) : undefined;
        if (!boardId) {
          refetchAll();
          return;
        }
        void queryClient.invalidateQueries({ queryKey: BOARDS_QUERY_KEY });
        void queryClient.invalidateQueries({ queryKey: ['ads', 'collection', boardId] });
        void queryClient.invalidateQueries({ queryKey: ['collection-items'] });
      })
      .subscribe((status) => {
        // A change may have been missed while the channel was (re)joining.
        if (status === 'SUBSCRIBED') refetchAll();
      });
    return () => {
      void supabase.removeChannel(channel);
    };
  }, [queryClient, userId]);
}
