/** /profile/billing-portal (guarded, under /profile): the tab Manage Subscription opens, on its way to Stripe's portal. */
export { BillingPortalPage } from '../../features/billing/components/billing-portal-page.tsx';
