import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from '../../../lib/toast.ts';
import { AD_LISTS_KEY } from '../../../lib/ad-list-cache.ts';
import { ADMIN_TEXTS } from '../../../lib/admin-texts.ts';
import { uploadAd } from '../api/upload-ad.ts';
import type { UploadServices } from '../api/upload-services.ts';
import { sanitizeFileName, sortChosenFiles, type RefusedFile } from '../lib/file-names.ts';
import { checkUploadFacts, factsOfFile, type FileFactsOverrides, type UploadFactKey, type UploadFactsForm } from '../lib/upload-facts.ts';

const T = ADMIN_TEXTS.adminUpload;

export type UploadStatus = 'pending' | 'uploading' | 'done' | 'error';

/** An upload queue item (spec section 3). */
export interface UploadItem {
  id: string;
  file: File;
  /** The sanitised file name. */
  name: string;
  /** An object URL of the file for the row's thumbnail ('' where the browser has none). */
  preview: string;
  brandId: string;
  categoryId: string;
  tagIds: string[];
  status: UploadStatus;
  error: string | null;
  path: string | null;
  /** The file's own facts, over the batch's. */
  overrides: FileFactsOverrides;
  /** The facts whose values break a rule, found when Upload all checks them. */
  invalidFacts: UploadFactKey[];
  /** The text read from the image once uploaded: null when it could not be read, undefined before. */
  imageText: string | null | undefined;
}

export interface UploadDefaults {
  brandId: string;
  categoryId: string;
  tagIds: string[];
}

const objectUrl = (file: File) => (typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : '');
const revoke = (item: UploadItem) => {
  if (item.preview && typeof URL.revokeObjectURL === 'function') URL.revokeObjectURL(item.preview);
};

/** Items Upload all still has to do: everything not done. */
const isOpen = (item: UploadItem) => item.status !== 'done';

/** 'Upload all' is enabled with a non-empty queue, a brand and category on every item and nothing running. */
export function canUploadAll(items: UploadItem[], running: boolean): boolean {
  const open = items.filter(isOpen);
  return !running && open.length > 0 && open.every((item) => item.brandId !== '' && item.categoryId !== '');
}

/**
 * The bulk upload queue: files in (images the storage takes, names sanitised,
 * defaults applied; the others named with their reason in `refused`), per-item edits, and Upload all, which takes the items one after
 * another (pending → uploading → done or error); a failure marks that item
 * and the next one proceeds.
 */
export function useUploadQueue(services: UploadServices) {
  const queryClient = useQueryClient();
  const [items, setItems] = useState<UploadItem[]>([]);
  const [running, setRunning] = useState(false);
  const [refused, setRefused] = useState<RefusedFile[]>([]);
  const itemsRef = useRef<UploadItem[]>([]);
  const runningRef = useRef(false);

  const update = useCallback((next: (current: UploadItem[]) => UploadItem[]) => {
    itemsRef.current = next(itemsRef.current);
    setItems(itemsRef.current);
  }, []);
  const patch = useCallback(
    (id: string, changes: Partial<UploadItem>) => update((current) => current.map((item) => (item.id === id ? { ...item, ...changes } : item))),
    [update],
  );

  // Object URLs of whatever is still queued go when the page does.
  useEffect(() => () => itemsRef.current.forEach(revoke), []);

  const addFiles = useCallback(
    (files: Iterable<File>, defaults: UploadDefaults) => {
      const sorted = sortChosenFiles(files);
      setRefused(sorted.refused);
      const added = sorted.accepted.map<UploadItem>((file) => ({
        id: crypto.randomUUID(),
        file,
        name: sanitizeFileName(file.name),
        preview: objectUrl(file),
        brandId: defaults.brandId,
        categoryId: defaults.categoryId,
        tagIds: [...defaults.tagIds],
        status: 'pending',
        error: null,
        path: null,
        overrides: {},
        invalidFacts: [],
        imageText: undefined,
      }));
      if (added.length > 0) update((current) => [...current, ...added]);
    },
    [update],
  );

  const remove = useCallback(
    (id: string) =>
      update((current) => {
        const item = current.find((candidate) => candidate.id === id);
        if (!item || item.status === 'uploading') return current;
        revoke(item);
        return current.filter((candidate) => candidate.id !== id);
      }),
    [update],
  );

  const setItemField = useCallback(
    (id: string, field: 'brandId' | 'categoryId', value: string) => {
      const item = itemsRef.current.find((candidate) => candidate.id === id);
      if (item && isOpen(item) && item.status !== 'uploading') patch(id, { [field]: value });
    },
    [patch],
  );

  /** Sets (or, with undefined, gives back to the batch) one of a file's own facts. */
  const setItemFact = useCallback(
    <K extends UploadFactKey>(id: string, key: K, value: FileFactsOverrides[K] | undefined) => {
      const item = itemsRef.current.find((candidate) => candidate.id === id);
      if (!item || !isOpen(item) || item.status === 'uploading') return;
      const overrides = { ...item.overrides, [key]: value };
      if (value === undefined) delete overrides[key];
      patch(id, { overrides, invalidFacts: item.invalidFacts.filter((field) => field !== key) });
    },
    [patch],
  );

  /** Sets the defaults on every item not yet uploaded. */
  const applyToAll = useCallback(
    (defaults: UploadDefaults) =>
      update((current) =>
        current.map((item) =>
          isOpen(item) && item.status !== 'uploading'
            ? { ...item, brandId: defaults.brandId, categoryId: defaults.categoryId, tagIds: [...defaults.tagIds] }
            : item,
        ),
      ),
    [update],
  );

  /**
   * Checks every open file's facts (the batch's with its own over them) before
   * anything is uploaded: when one breaks a rule, its fields are marked and
   * nothing goes up.
   */
  const uploadAll = useCallback(async (batchFacts: UploadFactsForm) => {
    if (runningRef.current || !canUploadAll(itemsRef.current, false)) return;
    const checked = new Map(itemsRef.current.filter(isOpen).map((item) => [item.id, checkUploadFacts(factsOfFile(batchFacts, item.overrides))]));
    update((current) => current.map((item) => {
      const check = checked.get(item.id);
      return check ? { ...item, invalidFacts: check.ok ? [] : check.fields } : item;
    }));
    if ([...checked.values()].some((check) => !check.ok)) {
      toast.error(T.toasts.invalidFacts.title, { description: T.toasts.invalidFacts.description });
      return;
    }
    runningRef.current = true;
    setRunning(true);
    let uploadedAny = false;
    try {
      const ids = itemsRef.current.filter(isOpen).map((item) => item.id);
      for (const id of ids) {
        const item = itemsRef.current.find((candidate) => candidate.id === id);
        if (!item || !isOpen(item)) continue;
        const check = checked.get(id);
        if (!check?.ok) continue;
        patch(id, { status: 'uploading', error: null });
        try {
          const uploaded = await uploadAd(services, { ...item, facts: check.facts });
          uploadedAny = true;
          patch(id, { status: 'done', path: uploaded.path, imageText: uploaded.imageText });
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          patch(id, { status: 'error', error: message });
          toast.error(T.toasts.uploadFailed.title, { description: `${item.name}: ${message}` });
        }
      }
      toast.success(T.toasts.finished.title, { description: T.toasts.finished.description });
    } catch (error) {
      console.error('Bulk upload failed', error);
      toast.error(T.toasts.bulkFailed.title);
    } finally {
      runningRef.current = false;
      setRunning(false);
      if (uploadedAny) await queryClient.invalidateQueries({ queryKey: AD_LISTS_KEY });
    }
  }, [patch, queryClient, services, update]);

  const clearFinished = useCallback(
    () =>
      update((current) => {
        current.filter((item) => item.status === 'done').forEach(revoke);
        return current.filter((item) => item.status !== 'done');
      }),
    [update],
  );

  const dismissRefused = useCallback(() => setRefused([]), []);

  return { items, running, refused, dismissRefused, addFiles, remove, setItemField, setItemFact, applyToAll, uploadAll, clearFinished, canUploadAll: canUploadAll(items, running) };
}
