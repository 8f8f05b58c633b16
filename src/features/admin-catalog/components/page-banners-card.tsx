import { useRef, useState, type ChangeEvent } from 'react';
import { toast } from '../../../lib/toast.ts';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { ADMIN_TEXTS } from '../../../lib/admin-texts.ts';
import { BANNER_PAGES, bannerUrl, usePageBanners, useRemovePageBanner, useSetPageBanner, type BannerPage } from '../api/page-banners.ts';
import { IMAGE_UPLOAD_TYPES } from '../api/storage-names.ts';
import { AdminCard } from './admin-card.tsx';
import { isUploadableImage } from './brand-logos-card.tsx';
import { errorTextOf } from '../../../lib/api-error.ts';

const T = ADMIN_TEXTS.adminManage;

/** The banner of the library, Black Friday and Top Picks pages: upload, replace, remove. */
export function PageBannersCard() {
  const banners = usePageBanners();
  const setBanner = useSetPageBanner();
  const remove = useRemovePageBanner();
  const fileInput = useRef<HTMLInputElement>(null);
  const [target, setTarget] = useState<BannerPage | null>(null);
  const [confirming, setConfirming] = useState<BannerPage | null>(null);
  const pathOf = (page: BannerPage) => banners.data?.find((banner) => banner.page === page)?.image_path ?? null;

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file || !target) return;
    if (!isUploadableImage(file)) {
      toast.error(T.toasts.uploadFailed, { description: T.toasts.wrongType });
      return;
    }
    setBanner.mutate(
      { page: target, file, previousPath: pathOf(target) },
      {
        onSuccess: () => toast.success(T.toasts.bannerUploaded),
        onError: (error) => toast.error(T.toasts.uploadFailed, { description: errorTextOf(error) }),
        onSettled: () => setTarget(null),
      },
    );
  };

  const confirmRemove = () => {
    if (!confirming) return;
    remove.mutate({ page: confirming, previousPath: pathOf(confirming) }, {
      onSuccess: () => toast.success(T.toasts.bannerRemoved),
      onError: (error) => toast.error(T.toasts.deleteFailed, { description: errorTextOf(error) }),
      onSettled: () => setConfirming(null),
    });
  };

  return (
    <AdminCard title={T.bannersTitle} description={T.bannersDescription}>
      <input ref={fileInput} type="file" accept={IMAGE_UPLOAD_TYPES.join(',')} className="hidden" data-testid="banner-input" onChange={onFile} />
      <ul className="grid grid-cols-1 gap-3 md:grid-cols-3">
        {BANNER_PAGES.map((page) => {
          const label = T.bannerPages[page];
          const path = pathOf(page);
          return (
            <li key={page} aria-label={T.bannerFor(label)} className="flex min-w-0 flex-col overflow-hidden rounded-xl border border-neutral-200">
              <div className="flex aspect-[4/1] items-center justify-center bg-neutral-100">
                {path ? (
                  <img src={bannerUrl(path)} alt={T.bannerFor(label)} className="h-full w-full object-cover" />
                ) : (
                  <span className="text-xs text-neutral-600">{T.noBanner}</span>
                )}
              </div>
              <div className="flex items-center gap-2 px-3 py-2">
                <span className="flex-1 text-sm font-medium text-neutral-900">{label}</span>
                <Button
                  variant="outline"
                  size="sm"
                  disabled={setBanner.isPending && target === page}
                  aria-label={path ? T.replaceBannerFor(label) : T.uploadBannerFor(label)}
                  onClick={() => {
                    setTarget(page);
                    fileInput.current?.click();
                  }}
                >
                  {path ? T.replaceBanner : T.uploadBanner}
                </Button>
                {path && (
                  <Button variant="ghost" size="sm" className="text-red-700 hover:bg-red-50 hover:text-red-800" aria-label={T.removeBannerFor(label)} onClick={() => setConfirming(page)}>
                    {T.removeBanner}
                  </Button>
                )}
              </div>
            </li>
          );
        })}
      </ul>
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        title={T.removeBanner}
        message={confirming ? T.confirmRemoveBanner(T.bannerPages[confirming]) : ''}
        confirmLabel={T.removeBanner}
        cancelLabel={T.cancel}
        destructive
        pending={remove.isPending}
        onConfirm={confirmRemove}
      />
    </AdminCard>
  );
}
