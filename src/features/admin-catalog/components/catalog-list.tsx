import { useState, type FormEvent } from 'react';
import { toast } from '../../../lib/toast.ts';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { CATALOG_NAME_MAX_LENGTH } from '../../../lib/constants.ts';
import { ADMIN_TEXTS } from '../../../lib/admin-texts.ts';
import { useCatalogEntries, type CatalogEntry, type CatalogKind } from '../api/get-catalog-entries.ts';
import { cleanName, useAddCatalogEntry, useDeleteCatalogEntry, useRenameCatalogEntry } from '../api/save-catalog-entry.ts';
import { errorTextOf } from '../../../lib/api-error.ts';

const T = ADMIN_TEXTS.adminManage;

/** A new name counts when it has more than one character once trimmed (spec section 5). */
export const canAddName = (name: string) => cleanName(name).length > 1;

const inputClasses =
  'h-8 min-w-0 flex-1 rounded-lg border border-neutral-200 bg-white px-2.5 text-sm text-neutral-900 placeholder:text-neutral-400 focus-visible:border-neutral-950 focus-visible:outline-none';

interface CatalogListProps {
  kind: CatalogKind;
}

/** One catalogue table: add, rename in place (Edit/Save/Cancel) and delete after confirmation; scrolls at 320 px. */
export function CatalogList({ kind }: CatalogListProps) {
  const entries = useCatalogEntries(kind);
  const add = useAddCatalogEntry(kind);
  const rename = useRenameCatalogEntry(kind);
  const remove = useDeleteCatalogEntry(kind);
  const singular = T.singular[kind];
  const [newName, setNewName] = useState('');
  const [editing, setEditing] = useState<{ id: string; name: string } | null>(null);
  const [confirming, setConfirming] = useState<CatalogEntry | null>(null);
  const headingId = `manage-${kind}-heading`;

  const submitAdd = (event: FormEvent) => {
    event.preventDefault();
    if (!canAddName(newName) || add.isPending) return;
    add.mutate(newName, {
      onSuccess: () => {
        toast.success(T.toasts.added(singular));
        setNewName('');
      },
      onError: (error) => toast.error(T.toasts.addFailed(singular), { description: errorTextOf(error) }),
    });
  };

  const submitRename = (event: FormEvent) => {
    event.preventDefault();
    if (!editing || cleanName(editing.name).length === 0 || rename.isPending) return;
    rename.mutate(editing, {
      onSuccess: () => {
        toast.success(T.toasts.updated(singular), { description: T.toasts.updatedDescription });
        setEditing(null);
      },
      onError: (error) => toast.error(T.toasts.renameFailed, { description: errorTextOf(error) }),
    });
  };

  const confirmDelete = () => {
    if (!confirming) return;
    remove.mutate(confirming.id, {
      onSuccess: () => toast.success(T.toasts.deleted(singular)),
      onError: (error) => toast.error(T.toasts.deleteFailed, { description: errorTextOf(error) }),
      onSettled: () => setConfirming(null),
    });
  };

  return (
    <section aria-labelledby={headingId} className="flex min-w-0 flex-col rounded-xl border border-neutral-200 bg-neutral-50/60">
      <header className="flex items-center justify-between gap-2 border-b border-neutral-200 px-3 py-2.5">
        <h3 id={headingId} className="text-sm font-semibold text-neutral-950">
          {T.lists[kind]}
        </h3>
        {entries.data && <span className="text-xs tabular-nums text-neutral-500">{entries.data.length}</span>}
      </header>
      <form onSubmit={submitAdd} className="flex gap-2 border-b border-neutral-200 p-2">
        <input
          value={newName}
          onChange={(event) => setNewName(event.target.value)}
          placeholder={T.newPlaceholder[kind]}
          aria-label={T.newPlaceholder[kind]}
          maxLength={CATALOG_NAME_MAX_LENGTH}
          className={inputClasses}
        />
        <Button type="submit" size="sm" disabled={!canAddName(newName) || add.isPending}>
          {T.add}
        </Button>
      </form>
      <div data-testid={`manage-${kind}-scroll`} className="max-h-80 overflow-y-auto overscroll-contain md:h-80">
        {entries.isPending && <p className="p-3 text-sm text-neutral-500">{T.loading}</p>}
        {entries.isError && <p className="p-3 text-sm text-red-600">{T.loadFailed}</p>}
        {entries.data?.length === 0 && <p className="p-3 text-sm text-neutral-500">{T.empty}</p>}
        <ul className="divide-y divide-neutral-200/70">
          {entries.data?.map((entry) => (
            <li key={entry.id} className="flex min-h-11 items-center gap-1.5 px-2 py-1.5">
              {editing?.id === entry.id ? (
                <form onSubmit={submitRename} className="flex min-w-0 flex-1 items-center gap-1.5">
                  <input
                    autoFocus
                    value={editing.name}
                    onChange={(event) => setEditing({ id: entry.id, name: event.target.value })}
                    onKeyDown={(event) => {
                      if (event.key === 'Escape') setEditing(null);
                    }}
                    aria-label={T.renameLabel(entry.name)}
                    maxLength={CATALOG_NAME_MAX_LENGTH}
                    className={inputClasses}
                  />
                  <Button type="submit" size="sm" disabled={cleanName(editing.name).length === 0 || rename.isPending}>
                    {T.save}
                  </Button>
                  <Button variant="ghost" size="sm" onClick={() => setEditing(null)}>
                    {T.cancel}
                  </Button>
                </form>
              ) : (
                <>
                  <span className="min-w-0 flex-1 truncate pl-1 text-sm text-neutral-900" title={entry.name}>
                    {entry.name}
                  </span>
                  {entry.system_key && (
                    <span title={T.boardTagHint} className="rounded-full bg-amber-100 px-2 py-0.5 text-[11px] font-medium text-amber-800">
                      {T.boardTag}
                    </span>
                  )}
                  <Button variant="ghost" size="sm" aria-label={T.editLabel(entry.name)} onClick={() => setEditing({ id: entry.id, name: entry.name })}>
                    {T.edit}
                  </Button>
                  {!entry.system_key && (
                    <Button
                      variant="ghost"
                      size="sm"
                      className="text-red-700 hover:bg-red-50 hover:text-red-800"
                      aria-label={T.deleteLabel(entry.name)}
                      onClick={() => setConfirming(entry)}
                    >
                      {T.delete}
                    </Button>
                  )}
                </>
              )}
            </li>
          ))}
        </ul>
      </div>
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        title={T.confirmDeleteTitle}
        message={confirming ? T.confirmDelete(confirming.name) : ''}
        confirmLabel={T.delete}
        cancelLabel={T.cancel}
        destructive
        pending={remove.isPending}
        onConfirm={confirmDelete}
      />
    </section>
  );
}
