import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { AD_LISTS_KEY } from '../../../lib/ad-list-cache.ts';
import type { BackfillCursor, BackfillServices } from '../api/backfill-worklist.ts';
import { runBackfill, type BackfillProgress } from '../lib/run-backfill.ts';

export type BackfillPhase = 'idle' | 'running' | 'cancelled' | 'finished' | 'failed';
export type BackfillFailure = 'list' | 'save';

export interface BackfillState {
  phase: BackfillPhase;
  progress: BackfillProgress | null;
  failure: BackfillFailure | null;
}

/**
 * A backfill on /admin (image texts, fingerprints): start, cancel, and
 * continue from where it stopped (cancelled or failed) with the counts carried
 * on. After a finished run, a new one starts from the newest ad again.
 */
export function useBackfill<Value>(services: BackfillServices<Value>) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<BackfillState>({ phase: 'idle', progress: null, failure: null });
  const cursor = useRef<BackfillCursor | null>(null);
  const carried = useRef<BackfillProgress | null>(null);
  const controller = useRef<AbortController | null>(null);

  // Leaving the page stops the run after the image being read.
  useEffect(() => () => controller.current?.abort(), []);

  const start = useCallback(async () => {
    if (controller.current) return;
    const abort = new AbortController();
    controller.current = abort;
    setState((current) => ({ phase: 'running', progress: current.phase === 'finished' ? null : current.progress, failure: null }));
    let listed = false;
    try {
      const run = await runBackfill(services, {
        cursor: cursor.current,
        before: carried.current,
        signal: abort.signal,
        onProgress: (progress, at) => {
          listed = true;
          cursor.current = at;
          carried.current = progress;
          setState({ phase: 'running', progress, failure: null });
        },
      });
      const finished = run.outcome === 'finished';
      cursor.current = finished ? null : run.cursor;
      carried.current = finished ? null : run.progress;
      setState({ phase: run.outcome, progress: run.progress, failure: null });
    } catch (error) {
      console.error('The backfill stopped', error);
      setState((current) => ({ phase: 'failed', progress: current.progress, failure: listed ? 'save' : 'list' }));
    } finally {
      controller.current = null;
      await queryClient.invalidateQueries({ queryKey: AD_LISTS_KEY });
    }
  }, [queryClient, services]);

  const cancel = useCallback(() => controller.current?.abort(), []);

  return { ...state, start, cancel };
}
