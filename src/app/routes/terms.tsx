import { usePageMetadata } from '../../hooks/use-document-title.ts';
import { LegalDocument } from '../../features/legal/components/legal-document.tsx';
import { TERMS_UPDATED, termsIntro, termsSections } from '../../features/legal/components/terms-content.tsx';
import { SiteLayout } from '../layout/site-layout.tsx';

/** /terms: the Terms of Service. */
export function TermsPage() {
  usePageMetadata({
    title: 'Terms of Service – Obyect',
    description: 'The terms for using Obyect: accounts and Google sign-in, subscriptions paid through Stripe, the 18+ age limit and account deletion.',
  });
  return (
    <SiteLayout>
      <LegalDocument title="Terms of Service" updated={TERMS_UPDATED} intro={termsIntro} sections={termsSections()} />
    </SiteLayout>
  );
}
