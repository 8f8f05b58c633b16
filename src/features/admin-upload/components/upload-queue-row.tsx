import { memo, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Select } from '../../../components/ui/select.tsx';
import { ADMIN_TEXTS } from '../../../lib/admin-texts.ts';
import type { UploadCatalogItem } from '../api/upload-services.ts';
import type { UploadItem, UploadStatus } from '../hooks/use-upload-queue.ts';
import { sizeInKb } from '../lib/file-names.ts';
import type { FileFactsOverrides, UploadFactKey, UploadFactsForm } from '../lib/upload-facts.ts';
import { DuplicateNotice } from './duplicate-notice.tsx';
import { ImageTextNote } from './image-text-note.tsx';
import { FACT_LABELS, UploadFactsFields } from './upload-facts-fields.tsx';

const T = ADMIN_TEXTS.adminUpload;

const STATUS_STYLES: Record<UploadStatus, string> = {
  pending: 'bg-neutral-100 text-neutral-700',
  uploading: 'bg-amber-100 text-amber-800',
  done: 'bg-emerald-100 text-emerald-800',
  error: 'bg-red-100 text-red-700',
};

interface UploadQueueRowProps {
  item: UploadItem;
  brands: UploadCatalogItem[];
  categories: UploadCatalogItem[];
  onField: (id: string, field: 'brandId' | 'categoryId', value: string) => void;
  onFact: <K extends UploadFactKey>(id: string, key: K, value: FileFactsOverrides[K] | undefined) => void;
  onRemove: (id: string) => void;
  onKeepDuplicate: (id: string) => void;
  /** The earlier files of the queue this one nearly duplicates. */
  queueDuplicates: UploadItem[] | undefined;
  batchFacts: UploadFactsForm;
  hooks: UploadCatalogItem[];
}

/**
 * One file: preview, name, size in KB, status, brand and category selects, its own facts, the text read from it,
 * whether it looks like an image already uploaded, Remove.
 */
export const UploadQueueRow = memo(function UploadQueueRow({
  item,
  brands,
  categories,
  onField,
  onFact,
  onRemove,
  onKeepDuplicate,
  queueDuplicates,
  batchFacts,
  hooks,
}: UploadQueueRowProps) {
  const locked = item.status === 'uploading' || item.status === 'done';
  // A file the browser cannot show gets a blank tile, not a broken-image icon.
  const [previewFailed, setPreviewFailed] = useState(false);
  return (
    <li data-testid="upload-item" data-status={item.status} className="grid grid-cols-[minmax(0,1fr)_auto] gap-x-2 gap-y-2.5 py-3 sm:flex sm:flex-wrap sm:items-center sm:gap-4">
      <div className="flex min-w-0 flex-1 items-center gap-3">
        {item.preview && !previewFailed && item.file.type.startsWith('video/') ? (
          <video
            src={item.preview}
            aria-label={T.preview(item.name)}
            muted
            playsInline
            preload="metadata"
            onError={() => setPreviewFailed(true)}
            className="h-14 w-11 shrink-0 rounded-md bg-neutral-100 object-cover"
          />
        ) : item.preview && !previewFailed ? (
          <img
            src={item.preview}
            alt={T.preview(item.name)}
            loading="lazy"
            decoding="async"
            onError={() => setPreviewFailed(true)}
            className="h-14 w-11 shrink-0 rounded-md bg-neutral-100 object-cover"
          />
        ) : (
          <div aria-hidden="true" className="h-14 w-11 shrink-0 rounded-md bg-neutral-100" />
        )}
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-medium text-neutral-900" title={item.name}>
            {item.name}
          </p>
          <p className="mt-0.5 flex items-center gap-2 text-xs text-neutral-500">
            <span>{T.sizeKb(sizeInKb(item.file.size))}</span>
            <span data-testid="upload-status" className={`rounded-full px-2 py-0.5 text-[11px] font-medium ${STATUS_STYLES[item.status]}`}>
              {T.status[item.status]}
            </span>
          </p>
          {item.error && (
            <p role="alert" className="mt-1 text-xs break-words text-red-600">
              {item.error}
            </p>
          )}
          {item.invalidFacts.length > 0 && (
            <p role="alert" className="mt-1 text-xs break-words text-red-600">
              {T.facts.invalid(item.invalidFacts.map((key) => FACT_LABELS[key]).join(', '))} {T.facts.rules}
            </p>
          )}
          <ImageTextNote text={item.imageText} />
          <DuplicateNotice item={item} queueDuplicates={queueDuplicates} onSkip={onRemove} onKeep={onKeepDuplicate} />
        </div>
      </div>
      <div className="col-span-2 flex items-center gap-2">
        <Select
          aria-label={T.brandFor(item.name)}
          value={item.brandId}
          disabled={locked}
          onChange={(event) => onField(item.id, 'brandId', event.target.value)}
          className="min-w-0 flex-1 sm:w-44 sm:flex-none [&_select]:w-full"
        >
          <option value="">{T.selectBrand}</option>
          {brands.map((brand) => (
            <option key={brand.id} value={brand.id}>
              {brand.name}
            </option>
          ))}
        </Select>
        <Select
          aria-label={T.categoryFor(item.name)}
          value={item.categoryId}
          disabled={locked}
          onChange={(event) => onField(item.id, 'categoryId', event.target.value)}
          className="min-w-0 flex-1 sm:w-44 sm:flex-none [&_select]:w-full"
        >
          <option value="">{T.selectCategory}</option>
          {categories.map((category) => (
            <option key={category.id} value={category.id}>
              {category.name}
            </option>
          ))}
        </Select>
      </div>
      <details className="col-span-2 sm:order-last sm:basis-full" open={item.invalidFacts.length > 0 || undefined}>
        <summary className="cursor-pointer text-xs font-medium text-neutral-700 select-none">{T.facts.fileSummary}</summary>
        <fieldset className="mt-2" aria-label={T.facts.fileTitle(item.name)}>
          <UploadFactsFields
            mode="file"
            values={item.overrides}
            batch={batchFacts}
            onSet={(key, value) => onFact(item.id, key, value)}
            hooks={hooks}
            invalid={item.invalidFacts}
            disabled={locked}
            idPrefix={`facts-${item.id}`}
          />
        </fieldset>
      </details>
      <Button
        variant="ghost"
        size="sm"
        disabled={item.status === 'uploading'}
        onClick={() => onRemove(item.id)}
        aria-label={T.removeLabel(item.name)}
        className="col-start-2 row-start-1 self-start sm:self-center"
      >
        {T.remove}
      </Button>
    </li>
  );
});
