import { toast } from '../../../lib/toast.ts';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import type { Ad } from '../../../lib/ad-schema.ts';
import { AD_CARD_TEXTS } from '../../../lib/ad-card-texts.ts';
import { LIBRARY_TEXTS } from '../../../lib/library-texts.ts';
import { SHELL_TEXTS } from '../../../lib/shell-texts.ts';
import { useDeleteAd } from '../api/delete-ad.ts';
import { errorTextOf } from '../../../lib/api-error.ts';

interface DeleteAdDialogProps {
  ad: Ad | null;
  onClose: () => void;
}

/** Confirms and deletes one ad (admins); the grid drops it in place. */
export function DeleteAdDialog({ ad, onClose }: DeleteAdDialogProps) {
  const deletion = useDeleteAd();
  const brand = ad?.brand_name ?? AD_CARD_TEXTS.adCard.unknownBrand;

  const confirm = () => {
    if (!ad) return;
    deletion.mutate(ad.id, {
      onSuccess: () => {
        toast.success(SHELL_TEXTS.toasts.deleted.title, { description: SHELL_TEXTS.toasts.deleted.description(1) });
        onClose();
      },
      onError: (error) => toast.error(SHELL_TEXTS.toasts.deleteFailed.title, { description: errorTextOf(error) }),
    });
  };

  return (
    <ConfirmDialog
      open={ad !== null}
      onOpenChange={(open) => !open && onClose()}
      title={LIBRARY_TEXTS.deleteAd.title}
      message={LIBRARY_TEXTS.deleteAd.confirm(brand)}
      confirmLabel={LIBRARY_TEXTS.deleteAd.delete}
      cancelLabel={LIBRARY_TEXTS.deleteAd.cancel}
      destructive
      pending={deletion.isPending}
      onConfirm={confirm}
    />
  );
}
