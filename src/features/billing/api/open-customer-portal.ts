import { useMutation } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { supabase } from '../../../lib/supabase-client.ts';
import { billingFunctionErrorFrom } from './function-error.ts';

const portalResponseSchema = z.object({ url: z.string().check(z.url()) });

/** The address of Stripe's billing portal for the caller. */
export async function getCustomerPortalUrl(): Promise<string> {
  const { data, error } = await supabase.functions.invoke('customer-portal', { body: {} });
  if (error) throw await billingFunctionErrorFrom(error, 'Failed to open billing portal');
  return portalResponseSchema.parse(data).url;
}

/**
 * Opens the portal in a new tab. The tab is opened on the click itself (a tab
 * opened after the network call would be blocked as a pop-up) and sent on once
 * the address is known; it is closed again when there is none.
 */
export function useOpenCustomerPortal() {
  return useMutation({
    mutationFn: async () => {
      const tab = window.open('', '_blank');
      try {
        const url = await getCustomerPortalUrl();
        if (tab) {
          tab.opener = null;
          tab.location.href = url;
        } else {
          window.open(url, '_blank', 'noopener');
        }
        return url;
      } catch (error) {
        tab?.close();
        throw error;
      }
    },
  });
}
