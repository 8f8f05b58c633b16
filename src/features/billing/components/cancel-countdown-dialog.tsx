import { useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogContent } from '../../../components/ui/dialog.tsx';
import { CANCEL_COUNTDOWN_SECONDS } from '../../../lib/constants.ts';
import { BILLING_TEXTS } from '../../../lib/billing-texts.ts';
import { pageNavigation } from '../hooks/page-navigation.ts';


interface CancelCountdownDialogProps {
  /** Which cancellation just happened; null: closed. */
  kind: 'scheduled' | 'immediate' | null;
  onStay: () => void;
}

/** After a cancellation: counts down 5 s and reloads the page, with 'Refresh now' and 'Stay here'. */
export function CancelCountdownDialog({ kind, onStay }: CancelCountdownDialogProps) {
  const T = BILLING_TEXTS.billing.countdown;
  const [secondsLeft, setSecondsLeft] = useState(CANCEL_COUNTDOWN_SECONDS);
  const open = kind !== null;

  useEffect(() => {
    if (!open) return;
    setSecondsLeft(CANCEL_COUNTDOWN_SECONDS);
    const timer = window.setInterval(() => setSecondsLeft((left) => Math.max(0, left - 1)), 1000);
    return () => window.clearInterval(timer);
  }, [open]);

  useEffect(() => {
    if (open && secondsLeft === 0) pageNavigation.reload();
  }, [open, secondsLeft]);

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? undefined : onStay())}>
      <DialogContent
        title={kind === 'immediate' ? T.immediateTitle : T.scheduledTitle}
        description={<span aria-live="polite">{T.body(secondsLeft)}</span>}
        showClose={false}
        className="max-w-sm"
      >
        <div className="mt-6 flex justify-end gap-2">
          <Button variant="outline" onClick={onStay}>
            {T.stayHere}
          </Button>
          <Button onClick={() => pageNavigation.reload()}>{T.refreshNow}</Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
