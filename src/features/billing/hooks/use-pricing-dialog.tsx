import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { PaymentSuccessDialog } from '../components/payment-success-dialog.tsx';
import { PricingDialog } from '../components/pricing-dialog.tsx';
import { useCheckoutReturn } from './use-checkout-return.ts';

interface PricingDialogControls {
  isOpen: boolean;
  openPricing: () => void;
  closePricing: () => void;
}

const PricingDialogContext = createContext<PricingDialogControls | null>(null);

/** The pricing dialog, available to every page, and 'Payment Successful' on the return from checkout. */
export function PricingDialogProvider({ children }: { children: ReactNode }) {
  const [isOpen, setOpen] = useState(false);
  const openPricing = useCallback(() => setOpen(true), []);
  const closePricing = useCallback(() => setOpen(false), []);
  const value = useMemo(() => ({ isOpen, openPricing, closePricing }), [isOpen, openPricing, closePricing]);
  return (
    <PricingDialogContext.Provider value={value}>
      {children}
      <PricingDialog open={isOpen} onOpenChange={setOpen} />
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
