import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogClose, DialogContent } from '../../../components/ui/dialog.tsx';
import { GiftIcon } from '../../../components/ui/icons.tsx';
import { useSession } from '../../../lib/auth-session.tsx';
import { LIBRARY_TEXTS } from '../../../lib/library-texts.ts';

/** Signed-in users go to the Black Friday board; anonymous visitors are invited to sign up first. */
export function BlackFridayButton({ className = '' }: { className?: string }) {
  const { session } = useSession();
  const navigate = useNavigate();
  const [dialogOpen, setDialogOpen] = useState(false);

  return (
    <>
      <Button
        variant="outline"
        size="sm"
        className={`sm:h-10 sm:rounded-xl sm:px-4 sm:text-sm border-amber-300 bg-gradient-to-b from-amber-50 to-white text-amber-950 hover:border-amber-400 hover:bg-amber-50 ${className}`}
        onClick={() => (session ? navigate('/black-friday') : setDialogOpen(true))}
      >
        <GiftIcon className="h-4 w-4 text-amber-600" />
        {LIBRARY_TEXTS.library.blackFridayButton}
      </Button>
      <Dialog open={dialogOpen} onOpenChange={setDialogOpen}>
        <DialogContent title={LIBRARY_TEXTS.blackFridayDialog.title} description={LIBRARY_TEXTS.blackFridayDialog.body}>
          <span className="mt-3 inline-flex items-center gap-1.5 rounded-full bg-amber-100 px-2.5 py-1 text-xs font-semibold text-amber-800">
            <GiftIcon className="h-3.5 w-3.5" />
            {LIBRARY_TEXTS.blackFridayDialog.badge}
          </span>
          <div className="mt-6 flex justify-end gap-2">
            <DialogClose asChild>
              <Button variant="outline">{LIBRARY_TEXTS.blackFridayDialog.cancel}</Button>
            </DialogClose>
            <Button onClick={() => navigate('/auth/signup')}>{LIBRARY_TEXTS.blackFridayDialog.confirm}</Button>
          </div>
        </DialogContent>
      </Dialog>
    </>
  );
}
