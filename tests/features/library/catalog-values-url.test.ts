// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { catalogParamValue, resolveCatalogValues, searchWithCommas } from '../../../src/features/library/hooks/use-library-filters.ts';

const item = (n: number, name: string) => ({ id: `b0000000-0000-4000-8000-${String(n).padStart(12, '0')}`, name });
const lumora = item(1, 'Lumora');
const northwind = item(2, 'Northwind');
const a = item(3, 'A');
const b = item(4, 'B');
const ab = item(5, 'A,B');
const salt = item(6, 'Salt, Pepper & Co');
const catalogue = [lumora, northwind, a, b, ab, salt];
const names = (value: string | null) => resolveCatalogValues(value, catalogue, false).items.map((found) => found.name);

describe('several catalogue values in one URL parameter', () => {
  it('reads names in any case and ids, comma-separated, each once', () => {
    expect(names('lumora')).toEqual(['Lumora']);
    expect(names('NORTHWIND, lumora')).toEqual(['Northwind', 'Lumora']);
    expect(names(`${northwind.id},Lumora,lumora`)).toEqual(['Northwind', 'Lumora']);
    expect(resolveCatalogValues('Lumora,Northwind', catalogue, false).dirty).toBe(false);
  });

  it("treats a missing, empty or 'all' value as no filter", () => {
    for (const value of [null, '', '  ', 'all', 'ALL']) expect(resolveCatalogValues(value, catalogue, false)).toEqual({ items: [], pending: false, dirty: false });
  });

  it('takes a value that is one name as a whole as that name, comma and all, and the longest name at each place', () => {
    expect(names('Salt, Pepper & Co')).toEqual(['Salt, Pepper & Co']);
    expect(names('Lumora,Salt, Pepper & Co,Northwind')).toEqual(['Lumora', 'Salt, Pepper & Co', 'Northwind']);
    expect(names('A,B')).toEqual(['A,B']);
    expect(names('B,A')).toEqual(['B', 'A']);
  });

  it('drops what names nothing and says the URL needs rewriting', () => {
    expect(resolveCatalogValues('Lumora,Nobody,,Northwind', catalogue, false)).toEqual({ items: [lumora, northwind], pending: false, dirty: true });
    expect(resolveCatalogValues('Nobody', catalogue, false)).toEqual({ items: [], pending: false, dirty: true });
  });

  it('waits for the catalogue, and drops every value when it cannot be loaded', () => {
    expect(resolveCatalogValues('Lumora', undefined, false)).toEqual({ items: [], pending: true, dirty: false });
    expect(resolveCatalogValues('Lumora', undefined, true)).toEqual({ items: [], pending: false, dirty: true });
  });

  it('keeps ten at most', () => {
    const many = Array.from({ length: 12 }, (_, index) => item(100 + index, `Brand ${index}`));
    const read = resolveCatalogValues(many.map((brand) => brand.name).join(','), many, false);
    expect(read.items).toEqual(many.slice(0, 10));
    expect(read.dirty).toBe(true);
  });

  it('writes names, or the ids when the names would read back as something else', () => {
    expect(catalogParamValue([], catalogue)).toBeNull();
    expect(catalogParamValue([northwind, lumora], catalogue)).toBe('Northwind,Lumora');
    expect(catalogParamValue([salt, lumora], catalogue)).toBe('Salt, Pepper & Co,Lumora');
    expect(catalogParamValue([ab], catalogue)).toBe('A,B');
    expect(catalogParamValue([a, b], catalogue)).toBe(`${a.id},${b.id}`);
    expect(names(catalogParamValue([a, b], catalogue))).toEqual(['A', 'B']);
  });

  it('keeps the commas readable in the query string', () => {
    expect(searchWithCommas(new URLSearchParams({ brand: 'Lumora,Northwind', category: 'Coffee & Tea' }))).toBe('brand=Lumora,Northwind&category=Coffee+%26+Tea');
  });
});
