import { createContext, lazy, Suspense, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { PaymentSuccessDialog } from '../components/payment-success-dialog.tsx';
import { useCheckoutReturn } from './use-checkout-return.ts';

/** The pricing dialog is a chunk of its own, fetched the first time it opens: most visits never open it. */
const PricingDialog = lazy(() => import('../components/pricing-dialog.tsx').then((module) => ({ default: module.PricingDialog })));

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
  return <PaymentSuccessDialog open={successOpen} onOpenChange={setSuccessOpen} />;
}
