interface UrlParts {
  pathname: string;
  search: string;
  hash: string;
}

/**
 * A password-recovery link, by the spec's rule: the hash has type=recovery or an
 * access_token; the query has type=recovery, a code or a token; or the path
 * contains /auth/reset-password.
 */
export function isRecoveryLink({ pathname, search, hash }: UrlParts): boolean {
  const hashParams = new URLSearchParams(hash.replace(/^#/, ''));
  const query = new URLSearchParams(search);
  return (
    hashParams.get('type') === 'recovery' ||
    hashParams.has('access_token') ||
    query.get('type') === 'recovery' ||
    query.has('code') ||
    query.has('token') ||
    pathname.includes('/auth/reset-password')
  );
}
