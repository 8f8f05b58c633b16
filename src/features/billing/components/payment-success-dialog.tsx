import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogClose, DialogContent } from '../../../components/ui/dialog.tsx';
import { CheckIcon } from '../../../components/ui/icons.tsx';
import { BILLING_TEXTS } from '../../../lib/billing-texts.ts';

interface PaymentSuccessDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** 'Payment Successful', shown once when the browser comes back from a completed checkout. */
export function PaymentSuccessDialog({ open, onOpenChange }: PaymentSuccessDialogProps) {
  const T = BILLING_TEXTS.billing.paymentSuccess;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={T.title}
        description={T.body}
        className="max-w-sm text-center"
        leading={
          <span className="mx-auto mb-4 flex h-12 w-12 items-center justify-center rounded-full bg-emerald-100 text-emerald-700">
            <CheckIcon className="h-6 w-6" strokeWidth={2.5} />
          </span>
        }
      >
        <DialogClose asChild>
          <Button size="lg" className="mt-6 w-full">
            {T.action}
          </Button>
        </DialogClose>
      </DialogContent>
    </Dialog>
  );
}
