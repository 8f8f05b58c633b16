import { toast } from '../../../lib/toast.ts';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import type { Ad } from '../../../lib/ad-schema.ts';
import { TEXTS } from '../../../lib/spec-texts.ts';
import { useDeleteAd } from '../api/delete-ad.ts';
import { errorTextOf } from '../../../lib/api-error.ts';

interface DeleteAdDialogProps {
  ad: Ad | null;
  onClose: () => void;
}

/** Confirms and deletes one ad (admins); the grid drops it in place. */
export function DeleteAdDialog({ ad, onClose }: DeleteAdDialogProps) {
  const deletion = useDeleteAd();
  const brand = ad?.brand_name ?? TEXTS.adCard.unknownBrand;

  const confirm = () => {
    if (!ad) return;
    deletion.mutate(ad.id, {
      onSuccess: () => {
        toast.success(TEXTS.toasts.deleted.title, { description: TEXTS.toasts.deleted.description(1) });
        onClose();
      },
      onError: (error) => toast.error(TEXTS.toasts.deleteFailed.title, { description: errorTextOf(error) }),
    });
  };

  return (
    <ConfirmDialog
      open={ad !== null}
      onOpenChange={(open) => !open && onClose()}
      title={TEXTS.deleteAd.title}
      message={TEXTS.deleteAd.confirm(brand)}
      confirmLabel={TEXTS.deleteAd.delete}
      cancelLabel={TEXTS.deleteAd.cancel}
      destructive
      pending={deletion.isPending}
      onConfirm={confirm}
    />
  );
}
