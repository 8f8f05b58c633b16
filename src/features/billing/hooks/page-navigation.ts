/** Leaving or reloading the page; one object so that component tests can watch it (jsdom navigates nowhere). */
export const pageNavigation = {
  /** Goes to another site, e.g. Stripe's checkout. */
  assign: (url: string) => window.location.assign(url),
  /** Goes to another site in place of this page in the history, e.g. Stripe's portal from our page that opens it. */
  replace: (url: string) => window.location.replace(url),
  /**
   * Opens one of our own pages in a new tab; null when the browser opened none. The new tab is ours, so it may
   * know its opener only until it is cut off here (it goes on to another site).
   */
  open: (path: string): Window | null => {
    const tab = window.open(path, '_blank');
    if (tab) tab.opener = null;
    return tab;
  },
  reload: () => window.location.reload(),
};
