import { useCallback, useMemo, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { ADMIN_TEXTS } from '../../../lib/admin-texts.ts';
import { supabaseUploadServices, type UploadServices } from '../api/upload-services.ts';
import { useUploadCatalog } from '../hooks/use-upload-catalog.ts';
import { queueDuplicatesOf, useUploadQueue, type UploadDefaults as Defaults } from '../hooks/use-upload-queue.ts';
import { RefusedFilesNotice } from './refused-files-notice.tsx';
import { UploadDefaults } from './upload-defaults.tsx';
import { UploadDropzone } from './upload-dropzone.tsx';
import { UploadQueueRow } from './upload-queue-row.tsx';
import { EMPTY_UPLOAD_FACTS, type UploadFactsForm } from '../lib/upload-facts.ts';
import { UploadFactsFields } from './upload-facts-fields.tsx';

const T = ADMIN_TEXTS.adminUpload;

/** /admin's bulk upload: drop images, set brand, category and tags, Upload all. */
export function AdminUploadSection({ services = supabaseUploadServices }: { services?: UploadServices }) {
  const brands = useUploadCatalog(services, 'brands').data ?? [];
  const categories = useUploadCatalog(services, 'categories').data ?? [];
  const tags = useUploadCatalog(services, 'tags').data ?? [];
  const hooks = useUploadCatalog(services, 'hooks').data ?? [];
  const [defaults, setDefaults] = useState<Defaults>({ brandId: '', categoryId: '', tagIds: [] });
  const [batchFacts, setBatchFacts] = useState<UploadFactsForm>(EMPTY_UPLOAD_FACTS);
  const queue = useUploadQueue(services);
  const queueDuplicates = useMemo(() => queueDuplicatesOf(queue.items), [queue.items]);
  const { addFiles } = queue;
  const onFiles = useCallback((files: File[]) => addFiles(files, defaults), [addFiles, defaults]);
  const hasFinished = queue.items.some((item) => item.status === 'done');

  return (
    <section aria-labelledby="admin-upload-title" className="rounded-2xl border border-neutral-200/80 bg-white p-4 shadow-[0_1px_2px_rgba(0,0,0,0.04)] sm:p-6">
      <header className="mb-5">
        <h2 id="admin-upload-title" className="text-base font-semibold tracking-tight text-neutral-950">
          {T.title}
        </h2>
        <p className="mt-0.5 text-sm text-neutral-500">{T.description}</p>
      </header>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.1fr)]">
        <div className="space-y-3">
          <UploadDropzone onFiles={onFiles} />
          <RefusedFilesNotice refused={queue.refused} onDismiss={queue.dismissRefused} />
        </div>
        <UploadDefaults
          services={services}
          defaults={defaults}
          onChange={setDefaults}
          onApplyToAll={() => queue.applyToAll(defaults)}
          applyDisabled={queue.running || queue.items.length === 0}
          brands={brands}
          categories={categories}
          tags={tags}
        />
      </div>
      <fieldset className="mt-6 border-t border-neutral-100 pt-4" disabled={queue.running}>
        <legend className="float-left w-full text-sm font-semibold text-neutral-900">{T.facts.batchTitle}</legend>
        <p className="clear-both mb-3 pt-0.5 text-sm text-neutral-500">{T.facts.batchHint}</p>
        <UploadFactsFields
          mode="batch"
          values={batchFacts}
          batch={batchFacts}
          onSet={(key, value) => setBatchFacts((current) => ({ ...current, [key]: value ?? EMPTY_UPLOAD_FACTS[key as keyof UploadFactsForm] }))}
          hooks={hooks}
          idPrefix="batch-facts"
        />
      </fieldset>
      <div className="mt-6 border-t border-neutral-100 pt-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h3 className="text-sm font-semibold text-neutral-900">{T.queueTitle(queue.items.length)}</h3>
          <div className="flex items-center gap-2">
            {queue.running && (
              <span role="status" className="text-xs text-neutral-500">
                {T.uploading}
              </span>
            )}
            {hasFinished && (
              <Button variant="ghost" size="sm" onClick={queue.clearFinished} disabled={queue.running}>
                {T.clearFinished}
              </Button>
            )}
            <Button size="sm" onClick={() => void queue.uploadAll(batchFacts)} disabled={!queue.canUploadAll} aria-busy={queue.running}>
              {T.uploadAll}
            </Button>
          </div>
        </div>
        {queue.items.length > 0 && (
          <ul className="mt-2 divide-y divide-neutral-100" aria-label={T.queueTitle(queue.items.length)}>
            {queue.items.map((item) => (
              <UploadQueueRow
                key={item.id}
                item={item}
                brands={brands}
                categories={categories}
                onField={queue.setItemField}
                onFact={queue.setItemFact}
                onRemove={queue.remove}
                onKeepDuplicate={queue.keepDuplicate}
                queueDuplicates={queueDuplicates.get(item.id)}
                batchFacts={batchFacts}
                hooks={hooks}
              />
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
