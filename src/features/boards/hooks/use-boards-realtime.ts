import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { supabase } from '../../../lib/supabase-client.ts';
import { BOARDS_QUERY_KEY } from '../api/list-boards.ts';

let channelCount = 0;

/**
 * Refetches the signed-in user's boards whenever one of them changes anywhere
 * (another tab or device): Realtime sends only the rows the user may read.
 */
export function useBoardsRealtime(userId: string | null) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (userId === null) return;
    channelCount += 1;
    const channel = supabase
      .channel(`user-collections-${userId}-${channelCount}`)
      .on('postgres_changes', { event: '*', schema: 'public', table: 'user_collections' }, () => {
        void queryClient.invalidateQueries({ queryKey: BOARDS_QUERY_KEY });
      })
      .subscribe((status) => {
        // A change may have been missed while the channel was (re)joining.
        if (status === 'SUBSCRIBED') void queryClient.invalidateQueries({ queryKey: BOARDS_QUERY_KEY });
      });
    return () => {
      void supabase.removeChannel(channel);
    };
  }, [queryClient, userId]);
}
