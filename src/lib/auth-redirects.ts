/** Where to send someone who must sign in first; `next` brings them back to the current path and query. */
export function signInWithNextPath(location: { pathname: string; search: string }): string {
  return `/auth/signin?next=${encodeURIComponent(`${location.pathname}${location.search}`)}`;
}
