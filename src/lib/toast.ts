/**
 * Toasts. `toast.success` and `toast.error` take sonner's arguments; sonner
 * itself and its outlet (components/ui/toaster.tsx) are fetched with the first
 * toast, so pages that show none never download them.
 */
type Sonner = typeof import('sonner');
type Message = Parameters<Sonner['toast']['success']>[0];
type Options = Parameters<Sonner['toast']['success']>[1];

let outletWanted = false;
let showOutlet: (() => void) | null = null;
let outletMounted!: () => void;
const outletReady = new Promise<void>((resolve) => (outletMounted = resolve));
let sonner: Promise<Sonner['toast']> | null = null;

/** Called by the mounted <Toaster />: how to make it render sonner's outlet, and when that outlet listens. */
export function registerToastOutlet(show: () => void): { wanted: boolean; mounted: () => void } {
  showOutlet = show;
  return { wanted: outletWanted, mounted: outletMounted };
}

export function unregisterToastOutlet(show: () => void) {
  if (showOutlet === show) showOutlet = null;
}

function show(kind: 'success' | 'error', message: Message, options?: Options) {
  if (!sonner) {
    outletWanted = true;
    showOutlet?.();
    sonner = Promise.all([import('sonner'), outletReady]).then(([module]) => module.toast);
  }
  void sonner.then((toast) => toast[kind](message, options));
}

export const toast = {
  success: (message: Message, options?: Options) => show('success', message, options),
  error: (message: Message, options?: Options) => show('error', message, options),
};
