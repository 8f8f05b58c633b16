import type { MouseEvent } from 'react';
import { MAIN_CONTENT_ID } from '../../lib/constants.ts';
import { SHELL_TEXTS } from '../../lib/shell-texts.ts';


/**
 * Where the content starts for a keyboard: a list's search field when the
 * page has one (the list is what the page is for), else the main region.
 */
function contentStart(): HTMLElement | null {
  const main = document.querySelector<HTMLElement>('main');
  if (!main) return null;
  const search = main.querySelector<HTMLInputElement>('input[type="search"]:not([disabled])');
  if (search && search.getClientRects().length > 0) return search;
  main.id ||= MAIN_CONTENT_ID;
  // Focusable by script only: the region itself is no Tab stop.
  if (!main.hasAttribute('tabindex')) main.setAttribute('tabindex', '-1');
  return main;
}

/**
 * The first Tab stop of every page: hidden until focused, it moves focus past
 * the navigation to the page's content (docs/decisions/0026).
 */
export function SkipLink() {
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    const target = contentStart();
    if (!target) return;
    // Focus, not the URL's hash: the router keeps the address, and Back stays where it was.
    event.preventDefault();
    target.focus({ preventScroll: true });
    target.scrollIntoView({ block: 'nearest' });
  };
  return (
    <a
      href={`#${MAIN_CONTENT_ID}`}
      onClick={skip}
      data-testid="skip-link"
      className="fixed top-3 left-3 z-[100] -translate-y-[200%] rounded-lg bg-neutral-950 px-4 py-2.5 text-sm font-semibold text-white shadow-lg focus:translate-y-0 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-400"
    >
      {SHELL_TEXTS.shell.skipToContent}
    </a>
  );
}
