import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from '../../../lib/toast.ts';
import { AD_LISTS_KEY } from '../../../lib/ad-list-cache.ts';
import { ADMIN_TEXTS } from '../../../lib/admin-texts.ts';
import { uploadAd } from '../api/upload-ad.ts';
import type { NearDuplicate, UploadServices } from '../api/upload-services.ts';
import { VIDEO_TYPES, type VideoCreative } from '../../../lib/media/video-poster.ts';
import { areNearDuplicates, type VisualFingerprint } from '../../../lib/media/visual-fingerprint.ts';
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
  /** The image's (or video poster's) visual fingerprint: undefined while it is made, null when it could not be. */
  fingerprint: VisualFingerprint | null | undefined;
  /** A video's poster, variants and length, made as it joined (null when that failed: the upload tries again and says why). */
  videoCreative?: VideoCreative | null;
  /** The library's ads it nearly duplicates: undefined until checked, null when the check failed. */
  duplicates: NearDuplicate[] | null | undefined;
  /** The admin chose to upload it although it looks like an image already uploaded. */
  keepDuplicate: boolean;
}

/** A video file (MP4 or WebM): its poster frame stands for it in the near-duplicate check. */
export const isVideoFile = (file: File) => VIDEO_TYPES[file.type.toLowerCase()] !== undefined;

/** The earlier files of the queue each file nearly duplicates, by id. */
export function queueDuplicatesOf(items: UploadItem[]): Map<string, UploadItem[]> {
  const found = new Map<string, UploadItem[]>();
  items.forEach((item, index) => {
    if (!item.fingerprint) return;
    const earlier = items
      .slice(0, index)
      .filter((other) => other.fingerprint && areNearDuplicates(other.fingerprint, item.fingerprint!));
    if (earlier.length > 0) found.set(item.id, earlier);
  });
  return found;
}

/** A file waiting for the admin to skip or keep it: it looks like an ad of the library or an earlier file. */
export function awaitsDuplicateChoice(item: UploadItem, inQueue: ReadonlyMap<string, UploadItem[]>): boolean {
  return item.status !== 'done' && !item.keepDuplicate && ((item.duplicates?.length ?? 0) > 0 || inQueue.has(item.id));
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

  // Each file is fingerprinted and looked up among the library's ads as it joins, one at a time; Upload all waits
  // for what is still being checked.
  const checks = useRef<Promise<void>>(Promise.resolve());
  const check = useCallback(
    (id: string, file: File) => {
      checks.current = checks.current.then(async () => {
        if (!itemsRef.current.some((item) => item.id === id)) return;
        // A video is checked by its poster frame, made now and kept for the upload.
        let image: Blob | null = file;
        if (isVideoFile(file)) {
          let videoCreative: VideoCreative | null = null;
          try {
            videoCreative = await services.makeVideoCreative(file);
          } catch (error) {
            console.warn('The video poster could not be made', file.name, error);
          }
          patch(id, { videoCreative });
          image = videoCreative?.poster ?? null;
        }
        let fingerprint: VisualFingerprint | null = null;
        try {
          if (image) fingerprint = await services.fingerprint(image);
        } catch (error) {
          console.warn('The image could not be fingerprinted', file.name, error);
        }
        let duplicates: NearDuplicate[] | null = null;
        if (fingerprint) {
          try {
            duplicates = await services.findNearDuplicates(fingerprint);
          } catch (error) {
            console.warn('Near-duplicates could not be looked up', file.name, error);
          }
        }
        patch(id, { fingerprint, duplicates });
      });
    },
    [patch, services],
  );

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
        fingerprint: undefined,
        duplicates: undefined,
        keepDuplicate: false,
      }));
      if (added.length > 0) update((current) => [...current, ...added]);
      for (const item of added) check(item.id, item.file);
    },
    [update, check],
  );

  /** The admin's answer for a file that looks like an image already uploaded: skip takes it off the list. */
  const keepDuplicate = useCallback((id: string) => patch(id, { keepDuplicate: true }), [patch]);

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
      const result = checked.get(item.id);
      return result ? { ...item, invalidFacts: result.ok ? [] : result.fields } : item;
    }));
    if ([...checked.values()].some((result) => !result.ok)) {
      toast.error(T.toasts.invalidFacts.title, { description: T.toasts.invalidFacts.description });
      return;
    }
    await checks.current;
    const inQueue = queueDuplicatesOf(itemsRef.current);
    if (itemsRef.current.some((item) => checked.has(item.id) && awaitsDuplicateChoice(item, inQueue))) {
      toast.error(T.toasts.undecidedDuplicates.title, { description: T.toasts.undecidedDuplicates.description });
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
        const result = checked.get(id);
        if (!result?.ok) continue;
        patch(id, { status: 'uploading', error: null });
        try {
          const uploaded = await uploadAd(services, { ...item, facts: result.facts });
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

  return {
    items,
    running,
    refused,
    dismissRefused,
    addFiles,
    remove,
    keepDuplicate,
    setItemField,
    setItemFact,
    applyToAll,
    uploadAll,
    clearFinished,
    canUploadAll: canUploadAll(items, running),
  };
}
