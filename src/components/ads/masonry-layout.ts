/**
 * The masonry grid's geometry, computed rather than measured by the browser:
 * every ad's width and height are known before its image loads, so each card's
 * place is known too, and only the cards near the viewport need to exist in the
 * DOM however long the list grows.
 */

export interface MasonryItem {
  id: string;
  /** The image's own size: the card's image box keeps its aspect ratio. */
  width: number;
  height: number;
}

export interface MasonryGeometry {
  columns: number;
  /** The grid's inner width in CSS pixels. */
  containerWidth: number;
  /** Space between columns and between cards in a column. */
  gap: number;
  /** A card's height besides its image (header and borders), until a card has been measured. */
  chromeHeight: number;
  /** How much narrower a card's image is than the card (its side borders); 0 when the image spans the card. */
  imageInsetX?: number;
}

export interface PlacedItem {
  index: number;
  column: number;
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface MasonryLayout {
  items: PlacedItem[];
  /** The height of the tallest column, gaps included. */
  height: number;
  columnWidth: number;
}

/** The height of an item's image in a card `cardWidth` wide whose image is `insetX` narrower than the card. */
export function imageHeightIn(cardWidth: number, item: MasonryItem, insetX = 0): number {
  return (Math.max(0, cardWidth - insetX) * item.height) / item.width;
}

/**
 * Places items in order, each at the foot of the shortest column (the leftmost
 * on a tie), so the columns stay even and earlier cards never move when more
 * pages arrive. `measured` holds the real heights of cards already rendered.
 */
export function layoutMasonry(items: readonly MasonryItem[], geometry: MasonryGeometry, measured: ReadonlyMap<string, number> = new Map()): MasonryLayout {
  const columns = Math.max(1, Math.floor(geometry.columns));
  const columnWidth = Math.max(0, (geometry.containerWidth - geometry.gap * (columns - 1)) / columns);
  const columnHeights = new Array<number>(columns).fill(0);
  const placed: PlacedItem[] = [];
  items.forEach((item, index) => {
    let column = 0;
    for (let candidate = 1; candidate < columns; candidate += 1) {
      if (columnHeights[candidate]! < columnHeights[column]!) column = candidate;
    }
    const height = measured.get(item.id) ?? geometry.chromeHeight + imageHeightIn(columnWidth, item, geometry.imageInsetX);
    const top = columnHeights[column]!;
    placed.push({ index, column, left: column * (columnWidth + geometry.gap), top, width: columnWidth, height });
    columnHeights[column] = top + height + geometry.gap;
  });
  const tallest = Math.max(...columnHeights);
  return { items: placed, height: items.length === 0 ? 0 : tallest - geometry.gap, columnWidth };
}

/**
 * The items that overlap the band from `top` to `bottom` (in the grid's own
 * coordinates), in list order, so the DOM and the tab order follow the list.
 */
export function itemsInBand(layout: MasonryLayout, top: number, bottom: number): PlacedItem[] {
  return layout.items.filter((item) => item.top < bottom && item.top + item.height > top);
}

/**
 * Which of the band's cards to have in the DOM next frame: the ones already
 * there, plus at most `limit` more, the nearest to the viewport first. After a
 * fast fling the whole band is new; mounting it at once would make one long
 * frame, so it arrives over a few. Returned in list order, as `itemsInBand`.
 */
export function cardsToMount(
  band: readonly PlacedItem[],
  idOf: (index: number) => string,
  mounted: ReadonlySet<string>,
  viewport: { top: number; bottom: number },
  limit: number,
): Set<string> {
  const distance = (item: PlacedItem) => Math.max(0, item.top - viewport.bottom, viewport.top - (item.top + item.height));
  const waiting = band.filter((item) => !mounted.has(idOf(item.index)));
  const next = new Set(band.map((item) => idOf(item.index)).filter((id) => mounted.has(id)));
  for (const item of [...waiting].sort((a, b) => distance(a) - distance(b) || a.index - b.index).slice(0, Math.max(0, limit))) {
    next.add(idOf(item.index));
  }
  return next;
}
