import { ACCOUNT_TEXTS } from '../../../lib/account-texts.ts';

const E = ACCOUNT_TEXTS.account.errors;

/** Supabase Auth's error codes, each with our sentence. */
const TEXT_BY_CODE: Record<string, string> = {
  invalid_credentials: E.invalidCredentials,
  email_not_confirmed: E.emailNotConfirmed,
  over_request_rate_limit: E.tooManyRequests,
  over_email_send_rate_limit: E.tooManyEmails,
  weak_password: E.weakPassword,
  same_password: E.samePassword,
  current_password_required: E.currentPasswordRequired,
  current_password_invalid: E.currentPasswordInvalid,
  reauthentication_needed: E.reauthenticationNeeded,
  reauthentication_not_valid: E.reauthenticationNeeded,
  email_address_invalid: E.emailLookalike,
  email_exists: E.emailTaken,
  user_already_exists: E.emailTaken,
  user_banned: E.userBanned,
  otp_expired: E.linkExpired,
  flow_state_not_found: E.linkExpired,
  flow_state_expired: E.linkExpired,
  bad_code_verifier: E.linkExpired,
  session_not_found: E.sessionEnded,
  session_expired: E.sessionEnded,
  refresh_token_not_found: E.sessionEnded,
  refresh_token_already_used: E.sessionEnded,
  no_authorization: E.sessionEnded,
  bad_jwt: E.sessionEnded,
  provider_disabled: E.providerDisabled,
  phone_provider_disabled: E.providerDisabled,
  validation_failed: E.emailInvalid,
};

export interface AuthErrorLike {
  code?: string | null;
  status?: number | null;
  name?: string;
}

/**
 * The sentence a screen shows for an auth error: ours, by its code (and the
 * 429 status for rate limits without one), never the server's or a library's
 * message. `overrides` lets a screen say more for a code, e.g. sign-in's wait.
 */
export function authErrorText(error: AuthErrorLike | null | undefined, overrides: Record<string, string> = {}): string | null {
  if (!error) return null;
  const code = error.code ?? (error.status === 429 ? 'over_request_rate_limit' : error.name === 'AuthWeakPasswordError' ? 'weak_password' : undefined);
  if (code && overrides[code]) return overrides[code];
  return (code && TEXT_BY_CODE[code]) || E.unexpected;
}
