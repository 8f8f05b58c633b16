import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { ACCOUNT_TEXTS } from '../../lib/account-texts.ts';
import { AdminLoginForm } from '../../features/auth/components/admin-login-form.tsx';
import { AuthCardLayout } from '../../features/auth/components/auth-card-layout.tsx';

/** /auth: the older admin login and create-account screen. */
export function AdminLoginPage() {
  const T = ACCOUNT_TEXTS.account.adminLogin;
  useDocumentTitle(T.documentTitle);
  return (
    <AuthCardLayout title={T.title} subtitle={T.subtitle}>
      <AdminLoginForm />
    </AuthCardLayout>
  );
}
