import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { TEXTS } from '../../lib/spec-texts.ts';
import { ResetPasswordForm } from '../../features/auth/components/reset-password-form.tsx';

/** /auth/reset-password: where recovery links land. */
export function ResetPasswordPage() {
  useDocumentTitle(TEXTS.account.resetPassword.documentTitle);
  return <ResetPasswordForm />;
}
