import { useMutation } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { supabase } from '../../../lib/supabase-client.ts';
import { pageNavigation } from '../hooks/page-navigation.ts';
import { billingFunctionErrorFrom } from './function-error.ts';

const portalResponseSchema = z.object({ url: z.string().check(z.url()) });

/** Our page that opens Stripe's billing portal; Manage Subscription opens it in a new tab. */
export const BILLING_PORTAL_PATH = '/profile/billing-portal';

/** The address of Stripe's billing portal for the caller. */
export async function getCustomerPortalUrl(): Promise<string> {
  const { data, error } = await supabase.functions.invoke('customer-portal', { body: {} });
  if (error) throw await billingFunctionErrorFrom(error, 'Failed to open billing portal');
  return portalResponseSchema.parse(data).url;
}

/**
 * Asks for a portal session and goes there, replacing the page that asked (so
 * Back from the portal does not land on a page that would ask again). A session
 * is asked for only when it is about to be used: Stripe's expire unvisited.
 */
export function useGoToCustomerPortal() {
  return useMutation({
    mutationFn: async () => {
      const url = await getCustomerPortalUrl();
      pageNavigation.replace(url);
      return url;
    },
  });
}

/**
 * Manage Subscription: the portal in a new tab (the spec's), through our own
 * page, which a tab opened on the click can show at once (no blank tab while
 * the address is asked for, and no pop-up blocker, the tab being opened by the
 * click itself). Where the browser opens no tab, this one goes there instead.
 */
export function openCustomerPortalInNewTab(): void {
  const tab = pageNavigation.open(BILLING_PORTAL_PATH);
  if (!tab) pageNavigation.assign(BILLING_PORTAL_PATH);
}
