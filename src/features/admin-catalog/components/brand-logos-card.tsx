import { useRef, useState, type ChangeEvent } from 'react';
import { toast } from '../../../lib/toast.ts';
import { BrandMark } from '../../../components/ads/brand-mark.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { ADMIN_TEXTS } from '../../../lib/admin-texts.ts';
import { useRemoveBrandLogo, useUploadBrandLogo } from '../api/brand-logo.ts';
import { useCatalogEntries, type CatalogEntry } from '../api/get-catalog-entries.ts';
import { IMAGE_UPLOAD_TYPES, isUploadImageType } from '../api/storage-names.ts';
import { AdminCard } from './admin-card.tsx';
import { errorTextOf } from '../../../lib/api-error.ts';

const T = ADMIN_TEXTS.adminManage;

export const isUploadableImage = (file: File) => isUploadImageType(file.type);

/** Each brand with its logo (or initial): upload, replace, or remove after confirmation. */
export function BrandLogosCard() {
  const brands = useCatalogEntries('brands');
  const upload = useUploadBrandLogo();
  const remove = useRemoveBrandLogo();
  const fileInput = useRef<HTMLInputElement>(null);
  const [target, setTarget] = useState<CatalogEntry | null>(null);
  const [confirming, setConfirming] = useState<CatalogEntry | null>(null);

  const choose = (brand: CatalogEntry) => {
    setTarget(brand);
    fileInput.current?.click();
  };

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file || !target) return;
    if (!isUploadableImage(file)) {
      toast.error(T.toasts.uploadFailed, { description: T.toasts.wrongType });
      return;
    }
    upload.mutate(
      { brand: target, file },
      {
        onSuccess: () => toast.success(T.toasts.logoUploaded),
        onError: (error) => toast.error(T.toasts.uploadFailed, { description: errorTextOf(error) }),
        onSettled: () => setTarget(null),
      },
    );
  };

  const confirmRemove = () => {
    if (!confirming) return;
    remove.mutate(confirming, {
      onSuccess: () => toast.success(T.toasts.logoRemoved),
      onError: (error) => toast.error(T.toasts.deleteFailed, { description: errorTextOf(error) }),
      onSettled: () => setConfirming(null),
    });
  };

  return (
    <AdminCard title={T.logosTitle} description={T.logosDescription}>
      <input ref={fileInput} type="file" accept={IMAGE_UPLOAD_TYPES.join(',')} className="hidden" data-testid="brand-logo-input" onChange={onFile} />
      <div className="max-h-80 overflow-y-auto overscroll-contain rounded-xl border border-neutral-200">
        {brands.isPending && <p className="p-3 text-sm text-neutral-500">{T.loading}</p>}
        {brands.isError && <p className="p-3 text-sm text-red-600">{T.loadFailed}</p>}
        {brands.data?.length === 0 && <p className="p-3 text-sm text-neutral-500">{T.noBrands}</p>}
        <ul className="grid grid-cols-1 divide-y divide-neutral-200/70 lg:grid-cols-2 lg:divide-y-0">
          {brands.data?.map((brand) => {
            const busy = upload.isPending && target?.id === brand.id;
            return (
              <li key={brand.id} aria-label={T.logoFor(brand.name)} className="flex min-w-0 items-center gap-3 px-3 py-2 lg:border-b lg:border-neutral-200/70">
                <BrandMark name={brand.name} logoPath={brand.logo_path ?? null} size="md" />
                <span className="min-w-0 flex-1 truncate text-sm font-medium text-neutral-900" title={brand.name}>
                  {brand.name}
                </span>
                <Button variant="outline" size="sm" disabled={busy} aria-label={brand.logo_path ? T.replaceLogoFor(brand.name) : T.uploadLogoFor(brand.name)} onClick={() => choose(brand)}>
                  {brand.logo_path ? T.replaceLogo : T.uploadLogo}
                </Button>
                {brand.logo_path && (
                  <Button
                    variant="ghost"
                    size="sm"
                    className="text-red-700 hover:bg-red-50 hover:text-red-800"
                    aria-label={T.removeLogoFor(brand.name)}
                    onClick={() => setConfirming(brand)}
                  >
                    {T.removeLogo}
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
      </div>
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        title={T.confirmRemoveLogoTitle}
        message={confirming ? T.confirmRemoveLogo(confirming.name) : ''}
        confirmLabel={T.removeLogo}
        cancelLabel={T.cancel}
        destructive
        pending={remove.isPending}
        onConfirm={confirmRemove}
      />
    </AdminCard>
  );
}
