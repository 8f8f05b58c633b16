import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from '../../../lib/toast.ts';
import { supabase } from '../../../lib/supabase-client.ts';
import { TEXTS } from '../../../lib/spec-texts.ts';

/** Logout as the spec has it: sign out, the 'Logged out' toast, then the sign-in page. */
export function useSignOut(): () => Promise<void> {
  const navigate = useNavigate();
  return useCallback(async () => {
    const { error } = await supabase.auth.signOut();
    if (error) {
      toast.error(TEXTS.toasts.logoutFailed.title, { description: TEXTS.toasts.logoutFailed.description });
      return;
    }
    toast.success(TEXTS.toasts.loggedOut.title, { description: TEXTS.toasts.loggedOut.description });
    navigate('/auth/signin');
  }, [navigate]);
}
