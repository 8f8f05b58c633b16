import { Navigate, useLocation } from 'react-router-dom';
import { isRecoveryLink } from '../recovery-link.ts';

/** '/': the library, or the reset-password page (query and hash kept) when a recovery link lands here. */
export function RootRedirect() {
  const location = useLocation();
  if (isRecoveryLink(location)) {
    return <Navigate to={`/auth/reset-password${location.search}${location.hash}`} replace />;
  }
  return <Navigate to="/library" replace />;
}
