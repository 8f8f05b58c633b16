/**
 * Toasts. `toast.success` and `toast.error` take sonner's arguments; sonner
 * itself and its outlet (components/ui/toaster.tsx) are fetched with the first
 * toast, so pages that show none never download them.
 *
 * An error toast belongs to the page that showed it (a form's 'Login failed'
 * says nothing about the next page): the app root dismisses it when the user
 * leaves that page (dismissToastsOfOtherPages). A success toast often
 * announces where the user lands ('Welcome back', 'Logged out') and stays.
 */
type Sonner = typeof import('sonner');
type Message = Parameters<Sonner['toast']['success']>[0];
type Options = Parameters<Sonner['toast']['success']>[1];
type ToastId = string | number;

let outletWanted = false;
let showOutlet: (() => void) | null = null;
let outletMounted!: () => void;
const outletReady = new Promise<void>((resolve) => (outletMounted = resolve));
let sonner: Promise<Sonner['toast']> | null = null;

/** The error toasts on screen and the path of the page each belongs to. */
const pageToasts = new Map<ToastId, string>();

/** Called by the mounted <Toaster />: how to make it render sonner's outlet, and when that outlet listens. */
export function registerToastOutlet(show: () => void): { wanted: boolean; mounted: () => void } {
  showOutlet = show;
  return { wanted: outletWanted, mounted: outletMounted };
}

export function unregisterToastOutlet(show: () => void) {
  if (showOutlet === show) showOutlet = null;
}

function loadSonner(): Promise<Sonner['toast']> {
  if (!sonner) {
    outletWanted = true;
    showOutlet?.();
    sonner = Promise.all([import('sonner'), outletReady]).then(([module]) => module.toast);
  }
  return sonner;
}

function show(kind: 'success' | 'error', message: Message, options?: Options) {
  const page = window.location.pathname;
  void loadSonner().then((toast) => {
    if (kind === 'success') {
      toast.success(message, options);
      return;
    }
    // Sonner loads on the first toast: a page left meanwhile no longer shows its error.
    if (window.location.pathname !== page) return;
    const forget = (closed: { id: ToastId }) => {
      if (pageToasts.get(closed.id) === page) pageToasts.delete(closed.id);
    };
    const id = toast.error(message, {
      ...options,
      onDismiss: (closed) => {
        forget(closed);
        options?.onDismiss?.(closed);
      },
      onAutoClose: (closed) => {
        forget(closed);
        options?.onAutoClose?.(closed);
      },
    });
    pageToasts.set(id, page);
  });
}

/** Dismisses the error toasts of pages other than `pathname`: the app root calls it on every navigation. */
export function dismissToastsOfOtherPages(pathname: string) {
  const stale = [...pageToasts].filter(([, page]) => page !== pathname).map(([id]) => id);
  if (stale.length === 0 || !sonner) return;
  for (const id of stale) pageToasts.delete(id);
  void sonner.then((toast) => stale.forEach((id) => toast.dismiss(id)));
}

export const toast = {
  success: (message: Message, options?: Options) => show('success', message, options),
  error: (message: Message, options?: Options) => show('error', message, options),
};
