import { useLocation } from 'react-router-dom';

/** Where sign-in sends someone when the link names no (acceptable) target. */
export const DEFAULT_REDIRECT_TARGET = '/library';

const PROBE_ORIGIN = 'http://same-origin.invalid';

/**
 * The target if it is a same-origin relative path, else the fallback: it must
 * start with a single '/', and not '//' or '/\' (which browsers read as another
 * host), nor hold control characters (which URL parsing drops, joining slashes).
 */
export function safeRedirectTarget(raw: string | null | undefined, fallback: string = DEFAULT_REDIRECT_TARGET): string {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return fallback;
  if (/[\u0000-\u001f\u007f\\]/.test(raw)) return fallback;
  try {
    const url = new URL(raw, PROBE_ORIGIN);
    if (url.origin !== PROBE_ORIGIN) return fallback;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return fallback;
  }
}

/** The sign-in target of a query string: `redirect` (written by the guard), else `next`, else the fallback. */
export function redirectTargetFrom(search: string, fallback: string = DEFAULT_REDIRECT_TARGET): string {
  const query = new URLSearchParams(search);
  return safeRedirectTarget(query.get('redirect') ?? query.get('next'), fallback);
}

/** The current page's safe sign-in target. */
export function useRedirectTarget(fallback: string = DEFAULT_REDIRECT_TARGET): string {
  return redirectTargetFrom(useLocation().search, fallback);
}

/** Where a confirmation email's link lands (this origin's /auth/confirmed), going on to `next` once confirmed. */
export function confirmationLinkTarget(next: string): string {
  return `${window.location.origin}/auth/confirmed?next=${encodeURIComponent(safeRedirectTarget(next))}`;
}
