import { Dialog, DialogContent } from '../../../components/ui/dialog.tsx';
import { adImageUrl } from '../../../lib/image-urls.ts';
import { ADMIN_TEXTS } from '../../../lib/admin-texts.ts';
import type { AdminAd } from '../api/get-admin-ads.ts';

interface FullImageDialogProps {
  ad: AdminAd | null;
  onClose: () => void;
}

/** The ad's large display variant, over the table. */
export function FullImageDialog({ ad, onClose }: FullImageDialogProps) {
  return (
    <Dialog open={ad !== null} onOpenChange={(open) => !open && onClose()}>
      {ad && (
        <DialogContent title={ADMIN_TEXTS.adminAds.fullImageTitle(ad.brand_name)} description={`${ad.category_name} · ${ad.width}×${ad.height}`} className="max-w-2xl">
          <div className="mt-4 flex justify-center">
            <img
              src={adImageUrl(ad.display_960_url)}
              width={ad.width}
              height={ad.height}
              alt={ADMIN_TEXTS.adminAds.fullImageTitle(ad.brand_name)}
              className="max-h-[70dvh] w-auto rounded-lg object-contain"
            />
          </div>
        </DialogContent>
      )}
    </Dialog>
  );
}
