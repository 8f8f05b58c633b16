import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import type { Session, User } from '@supabase/supabase-js';
import { supabase } from './supabase-client.ts';

export interface SessionState {
  session: Session | null;
  user: User | null;
  /** True until the first auth state (INITIAL_SESSION) is known. */
  loading: boolean;
}

const SessionContext = createContext<SessionState | null>(null);

/** Holds the current Supabase session, following every auth state change. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ session: null, user: null, loading: true });
  const navigate = useNavigate();

  useEffect(() => {
    const { data } = supabase.auth.onAuthStateChange((event, session) => {
      setState({ session, user: session?.user ?? null, loading: false });
      // Deferred: supabase-js holds its auth lock while it notifies listeners.
      if (event === 'PASSWORD_RECOVERY') setTimeout(() => navigate('/auth/reset-password'), 0);
    });
    return () => data.subscription.unsubscribe();
  }, [navigate]);

  return <SessionContext.Provider value={state}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error('useSession must be used inside SessionProvider');
  return state;
}
