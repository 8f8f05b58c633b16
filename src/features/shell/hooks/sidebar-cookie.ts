import { SIDEBAR_COOKIE_DAYS } from '../../../lib/constants.ts';

/** The cookie that remembers whether the sidebar is open (expanded) or collapsed to icons. */
export const SIDEBAR_COOKIE_NAME = 'sidebar_state';

/** The stored state: true (open) unless the cookie says 'false'. The sidebar is open by default. */
export function readSidebarOpen(cookie: string = document.cookie): boolean {
  for (const part of cookie.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === SIDEBAR_COOKIE_NAME) return rest.join('=') !== 'false';
  }
  return true;
}

/** Stores the state for seven days (renewed on every change). */
export function writeSidebarOpen(open: boolean): void {
  const maxAge = SIDEBAR_COOKIE_DAYS * 24 * 60 * 60;
  document.cookie = `${SIDEBAR_COOKIE_NAME}=${open}; path=/; max-age=${maxAge}; SameSite=Lax`;
}
