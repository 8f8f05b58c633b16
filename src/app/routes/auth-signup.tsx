import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { ACCOUNT_TEXTS } from '../../lib/account-texts.ts';
import { AuthCardLayout } from '../../features/auth/components/auth-card-layout.tsx';
import { LegalLinks } from '../../features/auth/components/legal-links.tsx';
import { SignUpForm } from '../../features/auth/components/sign-up-form.tsx';

/** /auth/signup */
export function SignUpPage() {
  const T = ACCOUNT_TEXTS.account.signUp;
  useDocumentTitle(T.documentTitle);
  return (
    <AuthCardLayout title={T.title} subtitle={T.subtitle} footer={<LegalLinks prefix={T.legalPrefix} />}>
      <SignUpForm />
    </AuthCardLayout>
  );
}
