import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogContent } from '../../../components/ui/dialog.tsx';
import { GiftIcon } from '../../../components/ui/icons.tsx';
import { LIBRARY_TEXTS } from '../../../lib/library-texts.ts';

interface ExclusiveAccessDialogProps {
  open: boolean;
  /** Cancel, Escape or the close button. */
  onCancel: () => void;
  /** 'Get access now'. */
  onGetAccess: () => void;
}

/** 'Black Friday Collection': the board is for members; anonymous visitors are invited to sign up. */
export function ExclusiveAccessDialog({ open, onCancel, onGetAccess }: ExclusiveAccessDialogProps) {
  const T = LIBRARY_TEXTS.blackFridayDialog;
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onCancel()}>
      <DialogContent title={T.title} description={T.body}>
        <span className="mt-3 inline-flex items-center gap-1.5 rounded-full bg-amber-100 px-2.5 py-1 text-xs font-semibold text-amber-900">
          <GiftIcon className="h-3.5 w-3.5" />
          {T.badge}
        </span>
        <div className="mt-6 flex justify-end gap-2">
          <Button variant="outline" onClick={onCancel}>
            {T.cancel}
          </Button>
          <Button onClick={onGetAccess}>{T.confirm}</Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
