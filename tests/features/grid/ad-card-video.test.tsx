// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AdCard } from '../../../src/components/ads/ad-card.tsx';
import { adSchema, playableVideoUrl, videoDurationLabel } from '../../../src/lib/ad-schema.ts';
import { makeAd } from '../support/ad-fixtures.ts';

const card = (ad: ReturnType<typeof makeAd>) => (
  <AdCard ad={ad} sizes="300px" eager={false} highPriority={false} onLockedClick={() => {}} onAddToBoard={() => {}} />
);

function setHover(canHover: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: canHover && query.includes('hover: hover'), media: query, addEventListener() {}, removeEventListener() {} }));
}

/** An IntersectionObserver whose entries the test sends. */
const observers: Array<{ callback: IntersectionObserverCallback; elements: Element[] }> = [];
class TestObserver {
  constructor(readonly callback: IntersectionObserverCallback) {
    observers.push({ callback, elements: this.elements });
  }
  elements: Element[] = [];
  observe(element: Element) {
    this.elements.push(element);
  }
  disconnect() {}
  unobserve() {}
  takeRecords() {
    return [];
  }
}
const showInView = (index: number, ratio: number) =>
  act(() => {
    const observer = observers[index]!;
    observer.callback([{ isIntersecting: ratio > 0, intersectionRatio: ratio, target: observer.elements[0]! } as IntersectionObserverEntry], observer as never);
  });

describe('video ads in the grid', () => {
  beforeEach(() => {
    observers.length = 0;
    vi.stubGlobal('IntersectionObserver', TestObserver);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('reads the video fields and labels the length as minutes and seconds', () => {
    const parsed = adSchema.parse({ ...makeAd(), video_duration_ms: 4200, video_url: 'object/sign/ad-videos/f/video.webm?token=t' });
    expect(parsed.video_duration_ms).toBe(4200);
    expect(playableVideoUrl(parsed)).toBe('object/sign/ad-videos/f/video.webm?token=t');
    expect(playableVideoUrl({ ...parsed, is_clear: false })).toBeNull();
    expect(adSchema.safeParse({ ...makeAd(), video_duration_ms: 100 }).success).toBe(false);
    expect([videoDurationLabel(4200), videoDurationLabel(400), videoDurationLabel(90_000), videoDurationLabel(600_000)]).toEqual(['0:04', '0:01', '1:30', '10:00']);
  });

  it('shows the length badge on a locked video card with no video at all, and nothing on an image card', () => {
    setHover(true);
    render(<MemoryRouter>{card(makeAd({ locked: true, video_duration_ms: 3000 }))}{card(makeAd())}</MemoryRouter>);
    expect(screen.getAllByTestId('video-duration').map((badge) => badge.getAttribute('aria-label'))).toEqual(['Video, 0:03']);
    expect(document.querySelectorAll('video')).toHaveLength(0);
    expect(screen.queryAllByTestId('card-video-box')).toHaveLength(0);
  });

  it("names a video card's link and locked button with the length its badge shows", () => {
    render(
      <MemoryRouter>
        {card(makeAd({ video_duration_ms: 65_000, brand_name: 'Lumora' }))}
        {card(makeAd({ locked: true, video_duration_ms: 3000, brand_name: 'Lumora' }))}
        {card(makeAd({ brand_name: 'Lumora' }))}
      </MemoryRouter>,
    );
    expect(screen.getByRole('link', { name: 'Open Lumora ad, video 1:05' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Lumora ad, video 0:03, locked: unlock to view' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open Lumora ad' })).toBeTruthy();
  });

  it('plays a clear video muted while the pointer is over its card, and removes it when the pointer leaves', async () => {
    setHover(true);
    const ad = makeAd({ video_duration_ms: 4000, video_url: 'object/sign/ad-videos/f/video.webm?token=t' });
    render(<MemoryRouter>{card(ad)}</MemoryRouter>);
    // The player is a chunk of its own, there once a clear video card is.
    await screen.findByTestId('card-video-box');
    const article = screen.getByTestId('ad-card');
    expect(screen.queryByTestId('card-video')).toBeNull();
    act(() => article.dispatchEvent(new Event('pointerenter')));
    const video = screen.getByTestId('card-video') as HTMLVideoElement;
    expect(video.muted).toBe(true);
    expect(video.loop).toBe(true);
    expect(video.getAttribute('src')).toMatch(/\/storage\/v1\/object\/sign\/ad-videos\/f\/video\.webm\?token=t$/);
    act(() => article.dispatchEvent(new Event('pointerleave')));
    expect(screen.queryByTestId('card-video')).toBeNull();
  });

  it('plays at once when its player arrives while the pointer is already over the card', async () => {
    setHover(true);
    const matches = Element.prototype.matches;
    vi.spyOn(Element.prototype, 'matches').mockImplementation(function (this: Element, selector: string) {
      return selector === ':hover' ? this.getAttribute('data-testid') === 'ad-card' : matches.call(this, selector);
    });
    render(<MemoryRouter>{card(makeAd({ video_duration_ms: 4000, video_url: 'object/sign/ad-videos/f/video.webm?token=t' }))}</MemoryRouter>);
    expect((await screen.findByTestId('card-video')).getAttribute('src')).toMatch(/\/f\/video\.webm/);
    vi.restoreAllMocks();
  });

  it('plays on a touch screen the card mostly in view, one card at a time', async () => {
    setHover(false);
    const first = makeAd({ video_duration_ms: 4000, video_url: 'object/sign/ad-videos/a/video.webm?token=t' });
    const second = makeAd({ video_duration_ms: 4000, video_url: 'object/sign/ad-videos/b/video.webm?token=t' });
    render(<MemoryRouter>{card(first)}{card(second)}</MemoryRouter>);
    await waitFor(() => expect(screen.getAllByTestId('card-video-box')).toHaveLength(2));
    expect(observers).toHaveLength(2);
    showInView(0, 0.3);
    expect(screen.queryAllByTestId('card-video')).toHaveLength(0);
    showInView(0, 0.8);
    expect(screen.getAllByTestId('card-video').map((video) => video.getAttribute('src'))).toEqual([expect.stringContaining('/a/video.webm')]);
    showInView(1, 0.9);
    expect(screen.getAllByTestId('card-video').map((video) => video.getAttribute('src'))).toEqual([expect.stringContaining('/b/video.webm')]);
    showInView(1, 0.2);
    expect(screen.queryAllByTestId('card-video')).toHaveLength(0);
  });

  it('says in our words when the preview cannot play', async () => {
    setHover(true);
    render(<MemoryRouter>{card(makeAd({ video_duration_ms: 4000, video_url: 'object/sign/ad-videos/f/video.webm?token=t' }))}</MemoryRouter>);
    await screen.findByTestId('card-video-box');
    act(() => screen.getByTestId('ad-card').dispatchEvent(new Event('pointerenter')));
    act(() => screen.getByTestId('card-video').dispatchEvent(new Event('error')));
    expect(screen.getByRole('status').textContent).toBe('This video could not be played. Reload the page to try again.');
  });
});
