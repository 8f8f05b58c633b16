/** Where to send someone who must sign in first; `next` brings them back to the current path and query. */
export function signInWithNextPath(location: { pathname: string; search: string }): string {
  return `/auth/signin?next=${encodeURIComponent(`${location.pathname}${location.search}`)}`;
}

/** Where to send someone asked to create an account; `next` brings them back here once they have signed in. */
export function signUpWithNextPath(location: { pathname: string; search: string }): string {
  return `/auth/signup?next=${encodeURIComponent(`${location.pathname}${location.search}`)}`;
}
