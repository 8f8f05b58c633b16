import { createContext, lazy, Suspense, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { useCheckoutReturn } from './use-checkout-return.ts';

/** The pricing dialog is a chunk of its own, fetched the first time it opens: most visits never open it. */
const PricingDialog = lazy(() => import('../components/pricing-dialog.tsx').then((module) => ({ default: module.PricingDialog })));
/** 'Payment Successful' too: only a return from checkout shows it. */
const PaymentSuccessDialog = lazy(() => import('../components/payment-success-dialog.tsx').then((module) => ({ default: module.PaymentSuccessDialog })));

interface PricingDialogControls {
  isOpen: boolean;
  openPricing: () => void;
  closePricing: () => void;
}

const PricingDialogContext = createContext<PricingDialogControls | null>(null);

/** The pricing dialog, available to every page, and 'Payment Successful' on the return from checkout. */
export function PricingDialogProvider({ children }: { children: ReactNode }) {
  const [isOpen, setOpen] = useState(false);
  // Mounted from the first opening on, so closing plays out and a second opening is instant.
  const [wanted, setWanted] = useState(false);
  const openPricing = useCallback(() => {
    setWanted(true);
    setOpen(true);
  }, []);
  const closePricing = useCallback(() => setOpen(false), []);
  const value = useMemo(() => ({ isOpen, openPricing, closePricing }), [isOpen, openPricing, closePricing]);
  return (
    <PricingDialogContext.Provider value={value}>
      {children}
      {wanted && (
        <Suspense fallback={null}>
          <PricingDialog open={isOpen} onOpenChange={setOpen} />
        </Suspense>
      )}
      <CheckoutReturnDialog />
    </PricingDialogContext.Provider>
  );
}

export function usePricingDialog(): PricingDialogControls {
  const value = useContext(PricingDialogContext);
  if (!value) throw new Error('usePricingDialog must be used inside PricingDialogProvider');
  return value;
}

function CheckoutReturnDialog() {
  const { successOpen, setSuccessOpen } = useCheckoutReturn();
  // Mounted from its first opening on, so closing plays out.
  const [wanted, setWanted] = useState(false);
  if (successOpen && !wanted) setWanted(true);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <PaymentSuccessDialog open={successOpen} onOpenChange={setSuccessOpen} />
    </Suspense>
  );
}
