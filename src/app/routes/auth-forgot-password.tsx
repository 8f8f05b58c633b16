import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { ACCOUNT_TEXTS } from '../../lib/account-texts.ts';
import { AuthCardLayout } from '../../features/auth/components/auth-card-layout.tsx';
import { ForgotPasswordForm } from '../../features/auth/components/forgot-password-form.tsx';

/** /auth/forgot-password */
export function ForgotPasswordPage() {
  const T = ACCOUNT_TEXTS.account.forgotPassword;
  useDocumentTitle(T.documentTitle);
  return (
    <AuthCardLayout title={T.title} subtitle={T.subtitle}>
      <ForgotPasswordForm />
    </AuthCardLayout>
  );
}
