import { Link } from 'react-router-dom';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogContent } from '../../../components/ui/dialog.tsx';
import { SparkIcon } from '../../../components/ui/icons.tsx';
import { AD_CARD_TEXTS } from '../../../lib/ad-card-texts.ts';

interface AdGateModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreateAccount: () => void;
  /** Where the footnote's sign-in link goes (sign-in with `next` back here). */
  signInPath: string;
}

/** The anonymous visitor's nudge after the free ad views. */
export function AdGateModal({ open, onOpenChange, onCreateAccount, signInPath }: AdGateModalProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={AD_CARD_TEXTS.gate.title}
        description={AD_CARD_TEXTS.gate.body}
        showClose={false}
        className="max-w-[420px] text-center"
        leading={
          <div className="mx-auto mb-4 inline-flex h-12 w-12 items-center justify-center rounded-2xl bg-neutral-950 text-white shadow-lg">
            <SparkIcon className="h-6 w-6" />
          </div>
        }
      >
        <div className="mt-6 flex flex-col gap-2">
          <Button size="lg" onClick={onCreateAccount}>
            {AD_CARD_TEXTS.gate.createAccount}
          </Button>
          <Button size="lg" variant="ghost" onClick={() => onOpenChange(false)}>
            {AD_CARD_TEXTS.gate.notNow}
          </Button>
        </div>
        <p className="mt-3 text-xs text-neutral-500">
          {/* The spec's words, as the link they promise: members go to sign-in, Create account to sign-up. */}
          <Link to={signInPath} className="underline underline-offset-2 hover:text-neutral-900">
            {AD_CARD_TEXTS.gate.footnote}
          </Link>
        </p>
      </DialogContent>
    </Dialog>
  );
}
