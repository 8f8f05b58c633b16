import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogClose, DialogContent } from '../../../components/ui/dialog.tsx';
import { BILLING_TEXTS } from '../../../lib/billing-texts.ts';

interface CancelSubscriptionDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** When the current period ends, as shown to the user; null when unknown. */
  periodEnd: string | null;
  /** Already set to cancel at the period end: only cancelling now is left. */
  alreadyScheduled: boolean;
  pending: boolean;
  onCancel: (immediate: boolean) => void;
}

/** Asks how to cancel: at the end of the period (access until then) or now. */
export function CancelSubscriptionDialog({ open, onOpenChange, periodEnd, alreadyScheduled, pending, onCancel }: CancelSubscriptionDialogProps) {
  const T = BILLING_TEXTS.billing.cancelDialog;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title={T.title} description={T.body(periodEnd)} showClose={false}>
        <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <DialogClose asChild>
            <Button variant="outline">{T.keep}</Button>
          </DialogClose>
          {!alreadyScheduled && (
            <Button variant="secondary" disabled={pending} onClick={() => onCancel(false)}>
              {T.atPeriodEnd}
            </Button>
          )}
          <Button variant="danger" disabled={pending} onClick={() => onCancel(true)}>
            {T.now}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
