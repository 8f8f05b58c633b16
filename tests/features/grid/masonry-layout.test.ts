import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cardsToMount, itemsInBand, layoutMasonry, type MasonryItem } from '../../../src/components/ads/masonry-layout.ts';

const item = (id: string, width: number, height: number): MasonryItem => ({ id, width, height });
const geometry = { columns: 2, containerWidth: 412, gap: 12, chromeHeight: 50 };

describe('the masonry layout', () => {
  it('puts each card at the foot of the shortest column, the leftmost on a tie', () => {
    // Column width (412 - 12) / 2 = 200: a 1:1 image is 200 tall, a 1:2 image 400.
    const layout = layoutMasonry([item('a', 100, 200), item('b', 100, 100), item('c', 100, 100), item('d', 100, 100)], geometry);
    expect(layout.columnWidth).toBe(200);
    expect(layout.items.map(({ column, left, top, height }) => ({ column, left, top, height }))).toEqual([
      { column: 0, left: 0, top: 0, height: 450 },
      { column: 1, left: 212, top: 0, height: 250 },
      { column: 1, left: 212, top: 262, height: 250 },
      { column: 0, left: 0, top: 462, height: 250 },
    ]);
    expect(layout.height).toBe(712);
  });

  it('uses a measured height in place of the estimate', () => {
    const layout = layoutMasonry([item('a', 100, 100), item('b', 100, 100), item('c', 100, 100)], geometry, new Map([['a', 300]]));
    expect(layout.items[0]!.height).toBe(300);
    expect(layout.items[2]).toMatchObject({ column: 1, top: 262 });
  });

  it('estimates the image at the card width less its side borders', () => {
    // Column width 200, borders 2: a 1:2 image is 198 wide and 396 tall under a 50 px header.
    const layout = layoutMasonry([item('a', 100, 200), item('b', 100, 100)], { ...geometry, imageInsetX: 2 });
    expect(layout.items.map((placed) => placed.height)).toEqual([446, 248]);
  });

  it('has no height without items', () => {
    expect(layoutMasonry([], geometry).height).toBe(0);
  });

  it('never moves a placed card when more cards arrive, and never overlaps two cards', () => {
    const sizes = fc.array(fc.record({ width: fc.integer({ min: 200, max: 2000 }), height: fc.integer({ min: 200, max: 3000 }) }), { minLength: 1, maxLength: 120 });
    fc.assert(
      fc.property(sizes, fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: 119 }), (list, columns, cut) => {
        const items = list.map((size, index) => item(String(index), size.width, size.height));
        const shape = { columns, containerWidth: 1200, gap: 16, chromeHeight: 50 };
        const full = layoutMasonry(items, shape);
        const first = layoutMasonry(items.slice(0, Math.min(cut, items.length)), shape);
        first.items.forEach((placed, index) => expect(full.items[index]).toEqual(placed));
        for (let column = 0; column < columns; column += 1) {
          const stack = full.items.filter((placed) => placed.column === column);
          stack.slice(1).forEach((placed, index) => expect(placed.top).toBeCloseTo(stack[index]!.top + stack[index]!.height + 16));
        }
        expect(Math.max(...full.items.map((placed) => placed.top + placed.height))).toBeCloseTo(full.height);
      }),
    );
  });

  it('keeps only the cards that overlap a band, in list order', () => {
    const items = Array.from({ length: 3000 }, (_, index) => item(String(index), 1080, 1350));
    const layout = layoutMasonry(items, { columns: 4, containerWidth: 1200, gap: 16, chromeHeight: 50 });
    const band = itemsInBand(layout, 100_000, 102_400);
    expect(band.length).toBeGreaterThan(0);
    expect(band.length).toBeLessThan(40);
    expect(band.map((placed) => placed.index)).toEqual([...band.map((placed) => placed.index)].sort((a, b) => a - b));
    for (const placed of band) expect(placed.top < 102_400 && placed.top + placed.height > 100_000).toBe(true);
  });

  describe('mounting a band a few cards a frame', () => {
    const items = Array.from({ length: 40 }, (_, index) => item(String(index), 100, 100));
    // Two columns of 200 px squares under a 50 px header: rows every 262 px.
    const layout = layoutMasonry(items, geometry);
    const idOf = (index: number) => items[index]!.id;

    it('keeps the cards already mounted and adds at most the limit, nearest the viewport first', () => {
      const band = itemsInBand(layout, 1000, 2600);
      const viewport = { top: 1800, bottom: 2300 };
      const next = cardsToMount(band, idOf, new Set(['8']), viewport, 3);
      expect(next.size).toBe(4);
      expect(next.has('8')).toBe(true);
      const distance = (id: string) => {
        const placed = layout.items[Number(id)]!;
        return Math.max(0, placed.top - viewport.bottom, viewport.top - (placed.top + placed.height));
      };
      const added = [...next].filter((id) => id !== '8');
      const left = band.map((placed) => idOf(placed.index)).filter((id) => !next.has(id));
      for (const id of added) for (const other of left) expect(distance(id)).toBeLessThanOrEqual(distance(other));
      expect(added.map(distance).every((value) => value === 0)).toBe(true);
    });

    it('drops cards that left the band and mounts the whole band over a few frames', () => {
      const band = itemsInBand(layout, 2000, 3000);
      let mounted: Set<string> = new Set(['0', '1', '2']);
      const frames: number[] = [];
      while (band.some((placed) => !mounted.has(idOf(placed.index)))) {
        mounted = cardsToMount(band, idOf, mounted, { top: 2200, bottom: 2800 }, 4);
        frames.push(mounted.size);
      }
      expect([...mounted].sort()).toEqual(band.map((placed) => idOf(placed.index)).sort());
      expect(frames).toEqual(frames.map((_, index) => Math.min(band.length, 4 * (index + 1))));
    });
  });
});
