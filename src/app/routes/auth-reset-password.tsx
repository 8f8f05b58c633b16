import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { ACCOUNT_TEXTS } from '../../lib/account-texts.ts';
import { ResetPasswordForm } from '../../features/auth/components/reset-password-form.tsx';

/** /auth/reset-password: where recovery links land. */
export function ResetPasswordPage() {
  useDocumentTitle(ACCOUNT_TEXTS.account.resetPassword.documentTitle);
  return <ResetPasswordForm />;
}
