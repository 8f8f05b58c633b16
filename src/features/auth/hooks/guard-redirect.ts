import { redirectTargetFrom } from './use-redirect-target.ts';

/** Pages that need a session; signed-out visitors are sent to sign in and brought back. */
export const GUARDED_PATHS = ['/favorites', '/profile', '/admin'] as const;

const isUnder = (pathname: string, root: string) => pathname === root || pathname.startsWith(`${root}/`);

/**
 * Where the route guard sends someone, or null to show the page: signed out on
 * a guarded page, to sign-in with `redirect` back; signed in on an account
 * screen (reset-password excepted), on to the library, the sign-in target, or /admin from /auth.
 */
export function guardRedirectFor(location: { pathname: string; search: string }, signedIn: boolean): string | null {
  const { pathname, search } = location;
  if (!signedIn) {
    const guarded = GUARDED_PATHS.some((root) => isUnder(pathname, root));
    return guarded ? `/auth/signin?redirect=${encodeURIComponent(`${pathname}${search}`)}` : null;
  }
  if (!isUnder(pathname, '/auth') || isUnder(pathname, '/auth/reset-password')) return null;
  if (pathname === '/auth' || pathname === '/auth/') return '/admin';
  return redirectTargetFrom(search);
}
