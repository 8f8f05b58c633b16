import { usePageMetadata } from '../../hooks/use-document-title.ts';
import { LegalDocument } from '../../features/legal/components/legal-document.tsx';
import { PRIVACY_UPDATED, privacyIntro, privacySections } from '../../features/legal/components/privacy-content.tsx';
import { SiteLayout } from '../layout/site-layout.tsx';

/** /privacy: the Privacy Policy. */
export function PrivacyPage() {
  usePageMetadata({
    title: 'Privacy Policy – Obyect',
    description: 'What personal data Obyect collects, Google sign-in and Stripe payments, your GDPR rights, and deletion within 30 days of closing your account.',
  });
  return (
    <SiteLayout>
      <LegalDocument title="Privacy Policy" updated={PRIVACY_UPDATED} intro={privacyIntro} sections={privacySections()} />
    </SiteLayout>
  );
}
