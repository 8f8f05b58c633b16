/** Leaving or reloading the page; one object so that component tests can watch it (jsdom navigates nowhere). */
export const pageNavigation = {
  /** Goes to another site, e.g. Stripe's checkout. */
  assign: (url: string) => window.location.assign(url),
  reload: () => window.location.reload(),
};
