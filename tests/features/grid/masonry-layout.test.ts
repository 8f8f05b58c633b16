import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { itemsInBand, layoutMasonry, type MasonryItem } from '../../../src/components/ads/masonry-layout.ts';

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
});
