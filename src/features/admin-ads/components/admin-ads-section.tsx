import { useEffect, useState } from 'react';
import { toast } from '../../../lib/toast.ts';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import type { ApiError } from '../../../lib/api-error.ts';
import { ADMIN_TEXTS } from '../../../lib/admin-texts.ts';
import { useDeleteAds } from '../api/delete-ads.ts';
import { pageCount, useAdminAds, type AdminAd } from '../api/get-admin-ads.ts';
import { useCatalogOptions } from '../api/get-catalog-options.ts';
import { useUpdateAds, type AdsChange } from '../api/update-ads.ts';
import { useAdminAdsQuery } from '../hooks/use-admin-ads-query.ts';
import { useNearViewport } from '../hooks/use-near-viewport.ts';
import { AdsFilters } from './ads-filters.tsx';
import { AdsTable } from './ads-table.tsx';
import { BulkBar } from './bulk-bar.tsx';
import { FactsCsvTools } from './facts-csv-tools.tsx';
import { FullImageDialog } from './full-image-dialog.tsx';
import { NearDuplicatesPanel } from './near-duplicates-panel.tsx';
import { errorTextOf } from '../../../lib/api-error.ts';

const T = ADMIN_TEXTS.adminAds;
/** The table loads once it comes within this distance of the viewport (spec). */
export const ADMIN_TABLE_LOAD_MARGIN_PX = 100;

const isAdminRefusal = (error: unknown) => {
  const { code, status } = error as ApiError;
  return code === 'admin_required' || code === '42501' || status === 401 || status === 403;
};

/** The admin's table of every ad: search, filters, sorts, pages of 50, inline edit, bulk edit and delete, near-duplicate groups. */
export function AdminAdsSection() {
  const { ref, near } = useNearViewport(ADMIN_TABLE_LOAD_MARGIN_PX);
  return (
    <section ref={ref} aria-labelledby="admin-ads-heading" className="rounded-2xl border border-neutral-200/80 bg-white p-4 shadow-[0_1px_2px_rgba(0,0,0,0.04)] sm:p-6">
      <h2 id="admin-ads-heading" className="mb-4 text-base font-semibold tracking-tight text-neutral-950">
        {T.title}
      </h2>
      {near ? <AdminAdsTable /> : <Skeleton className="h-64 rounded-xl" />}
    </section>
  );
}

function AdminAdsTable() {
  const state = useAdminAdsQuery();
  const ads = useAdminAds(state.query, true);
  const brands = useCatalogOptions('brands');
  const categories = useCatalogOptions('categories');
  const types = useCatalogOptions('types');
  const tags = useCatalogOptions('tags');
  const hooks = useCatalogOptions('hooks');
  const update = useUpdateAds();
  const remove = useDeleteAds();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [confirming, setConfirming] = useState<AdminAd[] | null>(null);
  const [viewing, setViewing] = useState<AdminAd | null>(null);
  const [savingId, setSavingId] = useState<string | null>(null);
  const [bulkKey, setBulkKey] = useState(0);

  const metadataFailed = brands.isError || categories.isError || types.isError || tags.isError || hooks.isError;
  useEffect(() => {
    if (metadataFailed) toast.error(T.toasts.metadataFailed, { id: 'admin-ads-metadata' });
  }, [metadataFailed]);

  // The selection belongs to the rows it was made on: every reload clears it.
  useEffect(() => setSelected(new Set()), [ads.dataUpdatedAt, JSON.stringify(state.query)]);

  if (ads.isError && isAdminRefusal(ads.error)) {
    return (
      <div role="alert" className="rounded-xl border border-red-200 bg-red-50 p-4">
        <p className="text-sm font-semibold text-red-800">{T.adminRequired}</p>
        <p className="mt-1 text-sm text-red-700">{T.adminRequiredDescription}</p>
      </div>
    );
  }

  const rows = ads.data?.ads ?? [];
  const total = ads.data?.total ?? 0;
  const pages = pageCount(total);
  const page = state.query.page;
  const options = { brands: brands.data ?? [], categories: categories.data ?? [], types: types.data ?? [], tags: tags.data ?? [], hooks: hooks.data ?? [] };

  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const toggleAll = () => setSelected((current) => (rows.every((ad) => current.has(ad.id)) ? new Set() : new Set(rows.map((ad) => ad.id))));

  const saveOne = (change: AdsChange, done: () => void) => {
    setSavingId(change.ids[0] ?? null);
    update.mutate(change, {
      onSuccess: () => {
        toast.success(T.toasts.updated.title, { description: T.toasts.updated.description });
        done();
      },
      onError: (error) => toast.error(T.toasts.updateFailed, { description: errorTextOf(error) }),
      onSettled: () => setSavingId(null),
    });
  };

  const applyBulk = (change: Omit<AdsChange, 'ids'>) => {
    const ids = [...selected];
    update.mutate(
      { ...change, ids },
      {
        onSuccess: (results) => {
          toast.success(T.toasts.bulkApplied.title, { description: T.toasts.bulkApplied.description(results.filter((result) => result.ok).length) });
          setBulkKey((key) => key + 1);
        },
        onError: (error) => toast.error(T.toasts.bulkFailed, { description: errorTextOf(error) }),
      },
    );
  };

  const confirmDelete = () => {
    if (!confirming) return;
    remove.mutate(confirming, {
      onSuccess: (results) => toast.success(T.toasts.deleted.title, { description: T.toasts.deleted.description(results.filter((result) => result.ok).length) }),
      onError: (error) => toast.error(T.toasts.deleteFailed, { description: errorTextOf(error) }),
      onSettled: () => setConfirming(null),
    });
  };

  return (
    <div className="space-y-4">
      <AdsFilters state={state} {...options} />
      <FactsCsvTools query={state.query} hooks={options.hooks} />
      <NearDuplicatesPanel />
      {selected.size > 0 && (
        <BulkBar
          key={bulkKey}
          count={selected.size}
          {...options}
          pending={update.isPending || remove.isPending}
          onApply={applyBulk}
          onDelete={() => setConfirming(rows.filter((ad) => selected.has(ad.id)))}
          onClearSelection={() => setSelected(new Set())}
        />
      )}
      {ads.isPending ? (
        <div aria-label={T.loading} className="space-y-2">
          {Array.from({ length: 6 }, (_, index) => (
            <Skeleton key={index} className="h-14 rounded-lg" />
          ))}
        </div>
      ) : ads.isError ? (
        <div role="alert" className="flex flex-wrap items-center gap-3 rounded-xl border border-red-200 bg-red-50 p-4 text-sm text-red-800">
          <span className="font-semibold">{T.toasts.errorLoading}</span>
          <span>{errorTextOf(ads.error)}</span>
          <Button size="sm" variant="outline" onClick={() => void ads.refetch()}>
            {T.tryAgain}
          </Button>
        </div>
      ) : rows.length === 0 ? (
        <p className="rounded-xl border border-dashed border-neutral-300 p-8 text-center text-sm text-neutral-500">{T.empty}</p>
      ) : (
        <div aria-busy={ads.isFetching} className={ads.isPlaceholderData ? 'opacity-60 transition-opacity' : ''}>
          <AdsTable
            ads={rows}
            selected={selected}
            onToggle={toggle}
            onToggleAll={toggleAll}
            {...options}
            savingId={savingId}
            onSave={saveOne}
            onDelete={(ad) => setConfirming([ad])}
            onViewImage={setViewing}
          />
        </div>
      )}
      <footer className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-neutral-600 tabular-nums">{T.page(page + 1, pages, total)}</p>
        <div className="flex gap-2">
          <Button variant="outline" size="sm" disabled={page === 0} onClick={() => state.setPage(page - 1)}>
            {T.previous}
          </Button>
          <Button variant="outline" size="sm" disabled={page + 1 >= pages} onClick={() => state.setPage(page + 1)}>
            {T.next}
          </Button>
        </div>
      </footer>
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        title={T.confirmDeletionTitle}
        message={confirming ? T.confirmDeletion(confirming.length) : ''}
        confirmLabel={T.delete}
        cancelLabel={T.cancel}
        destructive
        pending={remove.isPending}
        onConfirm={confirmDelete}
      />
      <FullImageDialog ad={viewing} onClose={() => setViewing(null)} />
    </div>
  );
}
