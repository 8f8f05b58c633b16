import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from '../../../lib/toast.ts';
import { supabase } from '../../../lib/supabase-client.ts';
import { SHELL_TEXTS } from '../../../lib/shell-texts.ts';

/** Logout as the spec has it: sign out, the 'Logged out' toast, then the sign-in page. */
export function useSignOut(): () => Promise<void> {
  const navigate = useNavigate();
  return useCallback(async () => {
    const { error } = await supabase.auth.signOut();
    if (error) {
      toast.error(SHELL_TEXTS.toasts.logoutFailed.title, { description: SHELL_TEXTS.toasts.logoutFailed.description });
      return;
    }
    toast.success(SHELL_TEXTS.toasts.loggedOut.title, { description: SHELL_TEXTS.toasts.loggedOut.description });
    navigate('/auth/signin');
  }, [navigate]);
}
