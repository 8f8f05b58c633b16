import { Fragment, useEffect, useLayoutEffect, useMemo, useRef, useState, type FocusEvent, type ReactNode } from 'react';
import { focusCardIn, registerCardFocuser } from './ad-card-focus.ts';
import { cardsToMount, imageHeightIn, itemsInBand, layoutMasonry, type MasonryItem } from './masonry-layout.ts';

interface VirtualMasonryProps<T extends MasonryItem> {
  items: readonly T[];
  columns: number;
  renderItem: (item: T, index: number) => ReactNode;
  /** How much narrower a card's image is than the card (its side borders), so heights are estimated right before measuring. */
  imageInsetX?: number;
  /** How the cards render where the browser gives no layout (no ResizeObserver): all of them, in a plain masonry. */
  fallback: (cards: ReactNode[]) => ReactNode;
}

/** Matches the card grid's gutters: 12 px, and 16 px from Tailwind's `sm` (640 px) up. */
const gapFor = (viewportWidth: number) => (viewportWidth >= 640 ? 16 : 12);
/** A card's header, facts strip and borders (86.25 px measured at 1440 px), until the first card is measured. */
const DEFAULT_CHROME_PX = 86;
/**
 * Cards mounted per frame once the grid has painted: a frame that mounts a
 * whole band after a fast fling (25 cards at 1440 px) runs past 50 ms here.
 */
const NEW_CARDS_PER_FRAME = 4;

/**
 * What grids have learned, kept across their mounts: the container's width,
 * the card chrome's height and the measured cards per geometry. A list that
 * comes back (Back, a page change and return) lays out exactly as it was in
 * its first render, so the scroll position restored over it shows the same
 * cards, and no measuring moves them afterwards.
 */
const learned = {
  width: 0,
  chrome: DEFAULT_CHROME_PX,
  measured: new Map<string, Map<string, number>>(),
};
/** Geometries whose measurements are kept (widths of the window and sidebar states a session goes through). */
const KEPT_GEOMETRIES = 6;

const geometryKey = (width: number, columns: number, gap: number) => `${width}/${columns}/${gap}`;

function measuredFor(key: string): Map<string, number> {
  let heights = learned.measured.get(key);
  if (!heights) {
    heights = new Map();
    learned.measured.set(key, heights);
    if (learned.measured.size > KEPT_GEOMETRIES) learned.measured.delete(learned.measured.keys().next().value!);
  }
  return heights;
}

interface Band {
  top: number;
  bottom: number;
  /** The viewport, as of the band's last move. */
  viewportTop: number;
  viewportBottom: number;
}

/**
 * The band of the grid worth rendering: the viewport and half a viewport above
 * and below, moved in half-viewport steps so scrolling re-renders only now and
 * then, and each re-render mounts few cards.
 */
function bandFor(container: HTMLElement): Band {
  const viewport = window.innerHeight || 800;
  const step = Math.max(200, Math.round(viewport / 2));
  const scrolled = -container.getBoundingClientRect().top;
  const anchor = Math.floor(scrolled / step) * step;
  return { top: anchor - step, bottom: anchor + viewport + 2 * step, viewportTop: anchor, viewportBottom: anchor + viewport };
}

/** The grid slot of an ad, found by its data attribute without building a selector from the id. */
function slotOf(container: Element, id: string): Element | null {
  for (const slot of container.querySelectorAll('[data-slot-id]')) if ((slot as HTMLElement).dataset.slotId === id) return slot;
  return null;
}

/**
 * A masonry grid that keeps only the cards near the viewport in the DOM. Each
 * card's place comes from its image's known size (and, once rendered, its
 * measured height), so the grid's full height exists from the first paint: the
 * scroll bar, scroll restoration and the infinite-scroll sentinel behave as if
 * every card were there.
 */
export function VirtualMasonry<T extends MasonryItem>({ items, columns, renderItem, imageInsetX = 0, fallback }: VirtualMasonryProps<T>) {
  const containerRef = useRef<HTMLDivElement>(null);
  const supported = typeof ResizeObserver !== 'undefined';
  // The last grid's width: usually this one's too, so the first render already has the grid's full height.
  const [width, setWidth] = useState(() => (supported ? learned.width : 0));
  const [hasLayout, setHasLayout] = useState<boolean | null>(null);
  const [gap, setGap] = useState(() => gapFor(typeof window === 'undefined' ? 1024 : window.innerWidth));
  const [band, setBand] = useState<Band>({ top: 0, bottom: 0, viewportTop: 0, viewportBottom: 0 });
  const [chrome, setChrome] = useState(learned.chrome);
  const chromeRef = useRef(chrome);
  chromeRef.current = chrome;
  const geometry = geometryKey(width, columns, gap);
  const [measured, setMeasured] = useState<ReadonlyMap<string, number>>(() => new Map(measuredFor(geometry)));
  const geometryRef = useRef(geometry);
  geometryRef.current = geometry;

  // Width, gutter and band before the first paint, then on every resize.
  useLayoutEffect(() => {
    const container = containerRef.current;
    if (!supported || !container) return;
    const update = () => {
      setHasLayout(container.clientWidth > 0);
      setWidth(container.clientWidth);
      if (container.clientWidth > 0) learned.width = container.clientWidth;
      setGap(gapFor(window.innerWidth));
      const next = bandFor(container);
      setBand((current) => (current.top === next.top && current.bottom === next.bottom ? current : next));
    };
    update();
    const observer = new ResizeObserver(update);
    observer.observe(container);
    return () => observer.disconnect();
  }, [supported]);

  useEffect(() => {
    const container = containerRef.current;
    if (!supported || !container) return;
    let frame = 0;
    const onScroll = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        const next = bandFor(container);
        setBand((current) => (current.top === next.top && current.bottom === next.bottom ? current : next));
      });
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('resize', onScroll);
    return () => {
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('resize', onScroll);
      if (frame) cancelAnimationFrame(frame);
    };
  }, [supported]);

  const layout = useMemo(
    () => layoutMasonry(items, { columns, containerWidth: width, gap, chromeHeight: chrome, imageInsetX }, measured),
    [items, columns, width, gap, chrome, imageInsetX, measured],
  );

  // Real card heights replace the estimates (they differ by rounding at most,
  // unless a card's header wraps); the first one also teaches the header height.
  const layoutRef = useRef(layout);
  layoutRef.current = layout;
  const itemsRef = useRef(items);
  itemsRef.current = items;
  const indexById = useMemo(() => new Map(items.map((item, index) => [item.id, index])), [items]);
  const indexByIdRef = useRef(indexById);
  indexByIdRef.current = indexById;
  const imageInsetRef = useRef(imageInsetX);
  imageInsetRef.current = imageInsetX;
  const cardIds = useRef(new WeakMap<Element, string>());
  const cardObserver = useMemo(() => {
    if (!supported) return null;
    return new ResizeObserver((entries) => {
      const updates = new Map<string, number>();
      let learnedChrome: number | null = null;
      for (const entry of entries) {
        const id = cardIds.current.get(entry.target);
        const index = id === undefined ? undefined : indexByIdRef.current.get(id);
        const item = index === undefined ? undefined : itemsRef.current[index];
        const placed = index === undefined ? undefined : layoutRef.current.items[index];
        if (!item || !placed) continue;
        const height = entry.borderBoxSize?.[0]?.blockSize ?? (entry.target as HTMLElement).offsetHeight;
        if (height <= 0) continue;
        if (Math.abs(height - placed.height) > 0.5) updates.set(item.id, height);
        learnedChrome ??= height - imageHeightIn(placed.width, item, imageInsetRef.current);
      }
      // The chrome changes only by more than half a pixel, and what grids keep
      // across mounts changes with it: a list that comes back must lay out with
      // the chrome it was laid out with. (Keeping a quarter-pixel refinement
      // that this grid never used put every estimated card 0.25 px lower on the
      // way back: 18 px at 40,000 px deep in one column.)
      if (learnedChrome !== null) {
        const chromeHeight = Math.max(0, learnedChrome);
        if (Math.abs(chromeRef.current - chromeHeight) > 0.5) {
          chromeRef.current = chromeHeight;
          learned.chrome = chromeHeight;
          setChrome(chromeHeight);
        }
      }
      if (updates.size > 0) {
        const kept = measuredFor(geometryRef.current);
        for (const [id, height] of updates) kept.set(id, height);
        setMeasured((current) => new Map([...current, ...updates]));
      }
    });
  }, [supported]);
  useEffect(() => () => cardObserver?.disconnect(), [cardObserver]);

  // Heights measured at another column width no longer apply; those measured at this one before still do.
  const firstGeometry = useRef(geometry);
  useEffect(() => {
    if (geometry === firstGeometry.current) return;
    firstGeometry.current = geometry;
    setMeasured(new Map(measuredFor(geometry)));
  }, [geometry]);

  /** Watches a rendered card's height while it is in the DOM (one stable ref callback per card). */
  const watchers = useRef(new Map<string, (slot: HTMLDivElement | null) => (() => void) | undefined>());
  const watchCard = (id: string) => {
    let watcher = watchers.current.get(id);
    if (!watcher) {
      watcher = (slot) => {
        const card = slot?.firstElementChild;
        if (!card || !cardObserver) return undefined;
        cardIds.current.set(card, id);
        cardObserver.observe(card);
        return () => {
          cardObserver.unobserve(card);
          cardIds.current.delete(card);
          watchers.current.delete(id);
        };
      };
      watchers.current.set(id, watcher);
    }
    return watcher;
  };

  // The band's cards, paced: all of them for the first paint, then at most
  // NEW_CARDS_PER_FRAME new ones a frame, nearest the viewport first.
  const inBand = useMemo(() => (width > 0 ? itemsInBand(layout, band.top, band.bottom) : []), [layout, band.top, band.bottom, width]);
  const [mounted, setMounted] = useState<ReadonlySet<string> | null>(null);
  const waiting = mounted !== null && inBand.some((placed) => !mounted.has(items[placed.index]!.id));
  useEffect(() => {
    if (mounted === null && inBand.length > 0) {
      setMounted(new Set(inBand.map((placed) => items[placed.index]!.id)));
      return;
    }
    if (!waiting) return;
    const frame = requestAnimationFrame(() =>
      setMounted((current) => cardsToMount(inBand, (index) => items[index]!.id, current ?? new Set(), { top: band.viewportTop, bottom: band.viewportBottom }, NEW_CARDS_PER_FRAME)),
    );
    return () => cancelAnimationFrame(frame);
  }, [inBand, items, mounted, waiting, band.viewportTop, band.viewportBottom]);

  // The card holding keyboard focus stays in the DOM wherever the band moves:
  // unmounting it would drop focus to the page's start.
  const [focusedId, setFocusedId] = useState<string | null>(null);
  const onFocus = (event: FocusEvent<HTMLDivElement>) => {
    const slot = (event.target as Element).closest<HTMLElement>('[data-slot-id]');
    setFocusedId(slot?.dataset.slotId ?? null);
  };
  const onBlur = (event: FocusEvent<HTMLDivElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocusedId(null);
  };

  // Asked to focus one of its cards (the ad detail closing): focus it if it is
  // in the DOM, else pin it, which mounts it, and focus it once it is there.
  const pendingFocus = useRef<string | null>(null);
  useEffect(() => {
    if (!supported) return undefined;
    return registerCardFocuser((id) => {
      const container = containerRef.current;
      if (!container || !indexByIdRef.current.has(id)) return false;
      const slot = slotOf(container, id);
      if (slot) return focusCardIn(slot);
      pendingFocus.current = id;
      setFocusedId(id);
      return true;
    });
  }, [supported]);
  useEffect(() => {
    const id = pendingFocus.current;
    if (!id || id !== focusedId) return;
    const slot = containerRef.current ? slotOf(containerRef.current, id) : null;
    if (!slot) return;
    pendingFocus.current = null;
    focusCardIn(slot);
  });

  // Without layout (no ResizeObserver, or a container of no width, as in jsdom)
  // nothing can be placed: every card renders in the plain masonry.
  if (!supported || hasLayout === false) {
    return <div ref={containerRef} data-item-count={items.length}>{fallback(items.map((item, index) => <Fragment key={item.id}>{renderItem(item, index)}</Fragment>))}</div>;
  }

  let visible = mounted === null ? inBand : inBand.filter((placed) => mounted.has(items[placed.index]!.id));
  const pinnedIndex = focusedId === null || width === 0 ? undefined : indexById.get(focusedId);
  const pinned = pinnedIndex === undefined ? undefined : layout.items[pinnedIndex];
  if (pinned && !visible.includes(pinned)) visible = [...visible, pinned].sort((a, b) => a.index - b.index);

  return (
    <div
      ref={containerRef}
      data-testid="virtual-masonry"
      data-item-count={items.length}
      className="relative w-full"
      style={{ height: layout.height }}
      onFocus={onFocus}
      onBlur={onBlur}
    >
      {visible.map((placed) => {
        const item = items[placed.index]!;
        return (
          <div
            key={item.id}
            ref={watchCard(item.id)}
            data-slot-id={item.id}
            className="absolute"
            style={{ top: placed.top, left: placed.left, width: placed.width }}
          >
            {renderItem(item, placed.index)}
          </div>
        );
      })}
    </div>
  );
}
