import { useMemo, useSyncExternalStore } from 'react';
import { thumbHashToAverageRGBA, thumbHashToDataURL } from 'thumbhash';

/**
 * Thumbhash placeholders. Decoding one to a PNG data URL takes a millisecond or
 * two, so a grid mounting dozens of cards while scrolling would spend a long
 * task on them: cards below the first row get the hash's average colour at
 * once and the picture a moment later, decoded in short tasks of their own.
 */
const decoded = new Map<string, string | null>();
const averages = new Map<string, string | null>();
const waiting = new Map<string, Set<() => void>>();
const queue: string[] = [];
let scheduled = false;
/**
 * Work per task, so that decoding never makes a long task: each decoded hash
 * also re-renders its cards and restyles their backgrounds before the task ends.
 */
const TASK_BUDGET_MS = 4;
const HASHES_PER_TASK = 3;

function bytesOf(hash: string): Uint8Array {
  return Uint8Array.from(atob(hash), (char) => char.charCodeAt(0));
}

/** The ad's thumbhash as a PNG data URL, decoded now (once per hash); null for a hash that does not decode. */
export function thumbhashDataUrl(hash: string): string | null {
  const cached = decoded.get(hash);
  if (cached !== undefined) return cached;
  let url: string | null;
  try {
    url = thumbHashToDataURL(bytesOf(hash));
  } catch {
    url = null;
  }
  decoded.set(hash, url);
  return url;
}

/** The hash's average colour as CSS, or null for a hash that does not decode. */
export function thumbhashAverageColor(hash: string): string | null {
  const cached = averages.get(hash);
  if (cached !== undefined) return cached;
  let color: string | null;
  try {
    const { r, g, b } = thumbHashToAverageRGBA(bytesOf(hash));
    color = `rgb(${Math.round(r * 255)} ${Math.round(g * 255)} ${Math.round(b * 255)})`;
  } catch {
    color = null;
  }
  averages.set(hash, color);
  return color;
}

function decodeQueued() {
  scheduled = false;
  const started = performance.now();
  for (let done = 0; queue.length > 0 && done < HASHES_PER_TASK && performance.now() - started < TASK_BUDGET_MS; done += 1) {
    const hash = queue.shift()!;
    thumbhashDataUrl(hash);
    const listeners = waiting.get(hash);
    waiting.delete(hash);
    for (const listener of listeners ?? []) listener();
  }
  if (queue.length > 0) schedule();
}

function schedule() {
  if (scheduled) return;
  scheduled = true;
  setTimeout(decodeQueued, 0);
}

function subscribeTo(hash: string) {
  return (onDecoded: () => void) => {
    if (decoded.has(hash)) return () => {};
    let listeners = waiting.get(hash);
    if (!listeners) {
      listeners = new Set();
      waiting.set(hash, listeners);
      queue.push(hash);
      schedule();
    }
    listeners.add(onDecoded);
    return () => {
      listeners.delete(onDecoded);
      if (listeners.size > 0) return;
      waiting.delete(hash);
      const index = queue.indexOf(hash);
      if (index >= 0) queue.splice(index, 1);
    };
  };
}

/**
 * The placeholder for an image: the decoded thumbhash, at once when `now` (the
 * first row, the page's largest paint) or already decoded, else the average
 * colour until it has been decoded.
 */
export function useThumbhashPlaceholder(hash: string, now: boolean): { image: string | null; color: string | null } {
  const subscribe = useMemo(() => subscribeTo(hash), [hash]);
  const image = useSyncExternalStore(
    now ? noSubscription : subscribe,
    () => (now ? thumbhashDataUrl(hash) : (decoded.get(hash) ?? null)),
    () => null,
  );
  return { image, color: image ? null : thumbhashAverageColor(hash) };
}

const noSubscription = () => () => {};
