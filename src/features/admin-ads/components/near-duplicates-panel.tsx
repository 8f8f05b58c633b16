import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { TrashIcon } from '../../../components/ui/icons.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import type { Ad } from '../../../lib/ad-schema.ts';
import { ADMIN_TEXTS } from '../../../lib/admin-texts.ts';
import { errorTextOf } from '../../../lib/api-error.ts';
import { formatDate } from '../../../lib/formatting.ts';
import { adImageUrl } from '../../../lib/image-urls.ts';
import { toast } from '../../../lib/toast.ts';
import { useDeleteAds, type AdToDelete } from '../api/delete-ads.ts';
import { GROUPS_PER_PAGE, useNearDuplicateGroups } from '../api/get-near-duplicate-groups.ts';

const T = ADMIN_TEXTS.adminAds;
const N = T.nearDuplicates;
/** Hashes this close are the same picture give or take compression or size. */
const IDENTICAL_BITS = 2;

/**
 * The ad table's near-duplicate groups: each the first ad with an image and
 * the later ads whose image is nearly the same, the newest duplicate first,
 * with a way to open or delete each later one.
 */
export function NearDuplicatesPanel() {
  const [open, setOpen] = useState(false);
  const [page, setPage] = useState(0);
  const groups = useNearDuplicateGroups(page);
  const remove = useDeleteAds();
  const [confirming, setConfirming] = useState<(AdToDelete & { brand_name: string | null }) | null>(null);
  const total = groups.data?.total ?? 0;

  const confirmDelete = () => {
    if (!confirming) return;
    remove.mutate([confirming], {
      onSuccess: (results) => toast.success(T.toasts.deleted.title, { description: T.toasts.deleted.description(results.filter((result) => result.ok).length) }),
      onError: (error) => toast.error(T.toasts.deleteFailed, { description: errorTextOf(error) }),
      onSettled: () => setConfirming(null),
    });
  };

  return (
    <div data-testid="near-duplicates">
      <Button variant="outline" size="sm" aria-expanded={open} aria-controls="near-duplicate-groups" onClick={() => setOpen((value) => !value)} disabled={groups.isPending}>
        {groups.isPending ? N.loading : N.show(total)}
      </Button>
      {open && (
        <section id="near-duplicate-groups" aria-label={N.title} className="mt-3 rounded-xl border border-neutral-200 p-3 sm:p-4">
          <p className="text-sm text-neutral-600">{N.hint}</p>
          {groups.isError ? (
            <div role="alert" className="mt-3 flex flex-wrap items-center gap-3 text-sm text-red-800">
              <span>{N.loadError}</span>
              <Button size="sm" variant="outline" onClick={() => void groups.refetch()}>
                {T.tryAgain}
              </Button>
            </div>
          ) : groups.data && groups.data.groups.length === 0 ? (
            <p className="mt-3 text-sm text-neutral-500">{N.none}</p>
          ) : (
            <ul className="mt-3 space-y-3" aria-busy={groups.isFetching}>
              {(groups.data?.groups ?? []).map((group) => (
                <li key={group.original.id} data-testid="near-duplicate-group" className="flex flex-wrap gap-2 rounded-lg bg-neutral-50 p-2">
                  <GroupAd ad={group.original} note={N.first} />
                  {group.duplicates.map((duplicate) => (
                    <GroupAd
                      key={duplicate.id}
                      ad={duplicate}
                      note={duplicate.distance <= IDENTICAL_BITS ? N.identical : N.similar}
                      onDelete={() => setConfirming(duplicate)}
                    />
                  ))}
                </li>
              ))}
              {groups.isPending && <Skeleton className="h-28 rounded-lg" />}
            </ul>
          )}
          {total > GROUPS_PER_PAGE && (
            <div className="mt-3 flex gap-2">
              <Button size="sm" variant="outline" disabled={page === 0} onClick={() => setPage(page - 1)}>
                {N.previous}
              </Button>
              <Button size="sm" variant="outline" disabled={(page + 1) * GROUPS_PER_PAGE >= total} onClick={() => setPage(page + 1)}>
                {N.next}
              </Button>
            </div>
          )}
        </section>
      )}
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(value) => !value && setConfirming(null)}
        title={T.confirmDeletionTitle}
        message={T.confirmDeletion(1)}
        confirmLabel={T.delete}
        cancelLabel={T.cancel}
        destructive
        pending={remove.isPending}
        onConfirm={confirmDelete}
      />
    </div>
  );
}

function GroupAd({ ad, note, onDelete }: { ad: Ad; note: string; onDelete?: () => void }) {
  const brand = ad.brand_name ?? '';
  return (
    <div data-testid="near-duplicate" data-ad-id={ad.id} className="flex w-44 items-start gap-2 rounded-md bg-white p-1.5 ring-1 ring-neutral-200">
      <Link to={`/ads/${ad.id}`} className="shrink-0 rounded focus-visible:outline-2 focus-visible:outline-neutral-950">
        {ad.display_480_url ? (
          <img src={adImageUrl(ad.display_480_url)} alt={`${brand} ad`} loading="lazy" width={ad.width} height={ad.height} className="h-16 w-12 rounded object-cover" />
        ) : (
          <span aria-hidden="true" className="block h-16 w-12 rounded bg-neutral-100" />
        )}
      </Link>
      <div className="min-w-0 flex-1 text-[11px] leading-tight text-neutral-600">
        <p className="truncate text-xs font-medium text-neutral-900">{brand}</p>
        <p>{note}</p>
        <p>{N.added(formatDate(ad.created_at))}</p>
        {onDelete && (
          <button
            type="button"
            onClick={onDelete}
            aria-label={N.delete(brand)}
            title={N.delete(brand)}
            className="mt-1 inline-flex h-7 w-7 items-center justify-center rounded-md text-neutral-500 hover:bg-red-50 hover:text-red-600 focus-visible:outline-2 focus-visible:outline-neutral-950"
          >
            <TrashIcon className="h-4 w-4" />
          </button>
        )}
      </div>
    </div>
  );
}
