// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BackfillAd, BackfillCursor, BackfillServices } from '../../../src/features/admin-backfills/api/backfill-worklist.ts';
import { FingerprintBackfillCard } from '../../../src/features/admin-backfills/components/fingerprint-backfill-card.tsx';
import { ImageTextBackfillCard } from '../../../src/features/admin-backfills/components/image-text-backfill-card.tsx';
import { BACKFILL_PAGE_SIZE, BACKFILL_SAVE_SIZE, runBackfill } from '../../../src/features/admin-backfills/lib/run-backfill.ts';
import type { VisualFingerprint } from '../../../src/lib/media/visual-fingerprint.ts';

vi.mock('../../../src/lib/supabase-client.ts', async () => ({ supabase: (await import('../support/fake-supabase.ts')).fakeSupabase.client }));

const SLOW = { timeout: 10_000 };

/** The worklist and the ads' texts in memory, newest first; OCR is a stand-in that "reads" the ad's id. */
class FakeBackfill implements BackfillServices<string> {
  texts = new Map<string, string | null>();
  saves: Array<Array<{ id: string; text: string }>> = [];
  reads: string[] = [];
  failRead = new Set<string>();
  failSave = false;
  /** When set, each read waits for it. */
  gate: (() => Promise<void>) | null = null;

  constructor(count: number) {
    for (let i = 0; i < count; i += 1) this.texts.set(`ad-${String(count - i).padStart(3, '0')}`, null);
  }

  private unread(): BackfillAd[] {
    return [...this.texts].filter(([, text]) => text === null).map(([id]) => ({ id, created_at: id, display_960_url: `object/sign/ad-images/${id}` }));
  }

  async listPage(after: BackfillCursor | null, limit: number) {
    if (limit > 100) throw new Error('bounded');
    const all = this.unread();
    const ads = all.filter((ad) => !after || ad.id < after.id).slice(0, limit);
    const last = ads.at(-1);
    return { ads, remaining: all.length, next: ads.length === limit && last ? { created_at: last.created_at, id: last.id } : null };
  }

  private images = new WeakMap<Blob, string>();

  async fetchImage(ad: BackfillAd) {
    const image = new Blob([ad.id]);
    this.images.set(image, ad.id);
    return image;
  }

  async derive(image: Blob) {
    const id = this.images.get(image)!;
    this.reads.push(id);
    if (this.gate) await this.gate();
    if (this.failRead.has(id)) throw new Error('unreadable');
    return `TEXT ${id}`;
  }

  async save(values: Array<{ id: string; value: string }>) {
    if (values.length > 100) throw new Error('too many');
    if (this.failSave) throw new Error('save failed');
    const texts = values.map(({ id, value }) => ({ id, text: value }));
    this.saves.push(texts);
    for (const { id, text } of texts) this.texts.set(id, text);
  }
}

beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('runBackfill', () => {
  it('reads every unread ad across pages, stores the texts in bounded batches and counts a failing image as skipped', async () => {
    const fake = new FakeBackfill(BACKFILL_PAGE_SIZE + 5);
    fake.failRead.add('ad-010');
    const seen: number[] = [];
    const run = await runBackfill(fake, { cursor: null, before: null, signal: new AbortController().signal, onProgress: (p) => seen.push(p.done) });
    expect(run.outcome).toBe('finished');
    expect(run.progress).toEqual({ done: 25, skipped: 1, total: 25 });
    expect(fake.reads).toHaveLength(25);
    expect([...fake.texts.values()].filter((text) => text === null)).toHaveLength(1);
    expect(fake.texts.get('ad-025')).toBe('TEXT ad-025');
    expect(fake.saves.every((batch) => batch.length <= BACKFILL_SAVE_SIZE)).toBe(true);
    expect(seen.at(-1)).toBe(25);
    // The skipped ad is read once in the run, not again and again.
    expect(fake.reads.filter((id) => id === 'ad-010')).toHaveLength(1);
  });

  it('stops on cancel after the image being read, stores what was read, and a new run resumes after it', async () => {
    const fake = new FakeBackfill(12);
    const abort = new AbortController();
    let reads = 0;
    fake.gate = async () => {
      reads += 1;
      if (reads === 4) abort.abort();
    };
    const first = await runBackfill(fake, { cursor: null, before: null, signal: abort.signal, onProgress: () => {} });
    expect(first.outcome).toBe('cancelled');
    expect(first.progress).toEqual({ done: 4, skipped: 0, total: 12 });
    expect([...fake.texts.values()].filter((text) => text !== null)).toHaveLength(4);
    fake.gate = null;
    const second = await runBackfill(fake, { cursor: first.cursor, before: first.progress, signal: new AbortController().signal, onProgress: () => {} });
    expect(second).toMatchObject({ outcome: 'finished', progress: { done: 12, skipped: 0, total: 12 } });
    expect(new Set(fake.reads).size).toBe(12);
    expect(fake.reads).toHaveLength(12);
  });

  it('throws when the texts cannot be stored, with the cursor left at the last stored batch', async () => {
    const fake = new FakeBackfill(BACKFILL_SAVE_SIZE + 3);
    const cursors: Array<BackfillCursor | null> = [];
    let saves = 0;
    const save = fake.save.bind(fake);
    fake.save = async (values) => {
      saves += 1;
      if (saves === 2) throw new Error('save failed');
      await save(values);
    };
    await expect(runBackfill(fake, { cursor: null, before: null, signal: new AbortController().signal, onProgress: (_, at) => cursors.push(at) })).rejects.toThrow();
    expect(cursors.at(-1)).toEqual({ created_at: 'ad-004', id: 'ad-004' });
  });
});

function renderCard(fake: FakeBackfill) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <ImageTextBackfillCard services={fake} />
    </QueryClientProvider>,
  );
}

describe('ImageTextBackfillCard', () => {
  it('shows the progress as a progress bar, cancels, continues from where it stopped and says when it is done', async () => {
    const fake = new FakeBackfill(6);
    fake.failRead.add('ad-002');
    let release: () => void = () => {};
    let held = true;
    fake.gate = () => (held && fake.reads.length === 3 ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve());
    renderCard(fake);
    fireEvent.click(screen.getByRole('button', { name: 'Read text in images' }));
    const bar = await screen.findByRole('progressbar', { name: 'Images read' }, SLOW);
    await waitFor(() => expect(bar.getAttribute('aria-valuenow')).toBe('2'), SLOW);
    expect(bar.getAttribute('aria-valuemax')).toBe('6');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    held = false;
    await act(async () => release());
    await screen.findByText('Stopped. Continue to read the rest.', {}, SLOW);
    expect(screen.getByText('3 of 6 images read')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Continue reading' }));
    await screen.findByText('Done: 5 images read.', {}, SLOW);
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('6');
    expect(screen.getByText('1 image could not be read and was skipped.')).toBeTruthy();
    expect(fake.reads).toHaveLength(6);
  });

  it('says so in our words when the ads cannot be listed', async () => {
    const fake = new FakeBackfill(2);
    fake.listPage = async () => {
      throw new Error('relation does not exist');
    };
    renderCard(fake);
    fireEvent.click(screen.getByRole('button', { name: 'Read text in images' }));
    expect((await screen.findByRole('alert', {}, SLOW)).textContent).toBe('The ads without text could not be listed. Try again.');
    expect(screen.queryByText(/relation/)).toBeNull();
  });
});

/** The fingerprint backfill's card over a stand-in: the same walk, its own words, and the fingerprints handed to the store as worked out. */
describe('FingerprintBackfillCard', () => {
  const print = (id: string): VisualFingerprint => ({ hash: String(id.length), histogram: [1, ...Array<number>(15).fill(0)], colours: [{ hex: '#2e6fd8', share: 1 }] });

  function fakeFingerprints(count: number) {
    const texts = new FakeBackfill(count);
    const stored = new Map<string, VisualFingerprint>();
    const services: BackfillServices<VisualFingerprint> = {
      listPage: (after, limit) => texts.listPage(after, limit),
      fetchImage: (ad) => texts.fetchImage(ad),
      async derive(image) {
        const id = await texts.derive(image);
        if (id.endsWith('002')) throw new Error('decode failed');
        return print(id);
      },
      async save(values) {
        await texts.save(values.map(({ id }) => ({ id, value: 'done' })));
        for (const { id, value } of values) stored.set(id, value);
      },
    };
    return { services, stored };
  }

  it('fingerprints every ad without one, says how many were skipped, and stores what it worked out', async () => {
    const { services, stored } = fakeFingerprints(4);
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={queryClient}>
        <FingerprintBackfillCard services={services} />
      </QueryClientProvider>,
    );
    expect(screen.getByRole('heading', { name: 'Fingerprint images' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Fingerprint images' }));
    await screen.findByText('Done: 3 images fingerprinted.', {}, SLOW);
    expect(screen.getByText('4 of 4 images fingerprinted')).toBeTruthy();
    expect(screen.getByText('1 image could not be fingerprinted and was skipped.')).toBeTruthy();
    expect([...stored.keys()].sort()).toEqual(['ad-001', 'ad-003', 'ad-004']);
    expect(stored.get('ad-001')).toEqual(print('TEXT ad-001'));
  });

  it('says so in our words when the fingerprints cannot be saved', async () => {
    const { services } = fakeFingerprints(2);
    services.save = async () => {
      throw new Error('duplicate key value violates unique constraint');
    };
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={queryClient}>
        <FingerprintBackfillCard services={services} />
      </QueryClientProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Fingerprint images' }));
    expect((await screen.findByRole('alert', {}, SLOW)).textContent).toBe('The fingerprints could not be saved. Try again: those images are fingerprinted again.');
    expect(screen.queryByText(/duplicate key/)).toBeNull();
  });
});
