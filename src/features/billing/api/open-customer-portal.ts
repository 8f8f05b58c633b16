import { useMutation } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { supabase } from '../../../lib/supabase-client.ts';
import { pageNavigation } from '../hooks/page-navigation.ts';
import { billingFunctionErrorFrom } from './function-error.ts';

const portalResponseSchema = z.object({ url: z.string().check(z.url()) });

/** The address of Stripe's billing portal for the caller. */
export async function getCustomerPortalUrl(): Promise<string> {
  const { data, error } = await supabase.functions.invoke('customer-portal', { body: {} });
  if (error) throw await billingFunctionErrorFrom(error, 'Failed to open billing portal');
  return portalResponseSchema.parse(data).url;
}

/**
 * Goes to the portal in this tab once its address is known: a tab opened on
 * the click (so that no pop-up blocker stops it) would sit blank, or show an
 * error, while the address is asked for. The portal returns to /profile.
 */
export function useOpenCustomerPortal() {
  return useMutation({
    mutationFn: async () => {
      const url = await getCustomerPortalUrl();
      pageNavigation.assign(url);
      return url;
    },
  });
}
