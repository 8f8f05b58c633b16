import { useSession } from '../../../lib/auth-session.tsx';
import { useBoardsRealtime } from '../hooks/use-boards-realtime.ts';

/** One Realtime channel per tab for the signed-in user's boards and saved ads, whatever the page and the width. */
export function BoardsLiveUpdates() {
  const { user } = useSession();
  useBoardsRealtime(user?.id ?? null);
  return null;
}
