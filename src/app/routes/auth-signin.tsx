import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { ACCOUNT_TEXTS } from '../../lib/account-texts.ts';
import { AuthCardLayout } from '../../features/auth/components/auth-card-layout.tsx';
import { LegalLinks } from '../../features/auth/components/legal-links.tsx';
import { SignInForm } from '../../features/auth/components/sign-in-form.tsx';

/** /auth/signin */
export function SignInPage() {
  const T = ACCOUNT_TEXTS.account.signIn;
  useDocumentTitle(T.documentTitle);
  return (
    <AuthCardLayout title={T.title} subtitle={T.subtitle} footer={<LegalLinks prefix={T.legalPrefix} />}>
      <SignInForm />
    </AuthCardLayout>
  );
}
