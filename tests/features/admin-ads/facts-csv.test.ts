import { describe, expect, it } from 'vitest';
import type { AdminAdFacts } from '../../../src/features/admin-ads/api/get-admin-ad-facts.ts';
import { CsvSyntaxError, parseCsv, serialiseCsv } from '../../../src/features/admin-ads/lib/csv.ts';
import { readFactCells } from '../../../src/features/admin-ads/lib/fact-cells.ts';
import { CSV_COLUMNS, factsCsv, factsCsvFileName, previewImport, readFactsFile } from '../../../src/features/admin-ads/lib/facts-csv.ts';

const ID_A = '11111111-1111-4111-8111-111111111111';
const ID_B = '22222222-2222-4222-8222-222222222222';
const ID_C = '33333333-3333-4333-8333-333333333333';
const HOOKS = [
  { id: 'h1', name: 'Before and after' },
  { id: 'h2', name: 'Social proof' },
];

const facts = (id: string, overrides: Partial<AdminAdFacts> = {}): AdminAdFacts => ({
  id,
  platforms: ['meta', 'instagram'],
  placement: null,
  format: 'single_image',
  first_seen: '2026-10-01',
  last_seen: '2026-10-20',
  still_running: false,
  landing_url: 'https://lumora.example/serum',
  primary_text: 'Glow, "naturally",\nevery day',
  headline: 'Glow serum',
  call_to_action: 'shop_now',
  offer: 'discount',
  hook_id: 'h1',
  hook_name: 'Before and after',
  language: 'en',
  country: 'US',
  ...overrides,
});
const ad = (id: string) => ({ id, brand_name: 'Lumora, Inc.', category_name: 'Skincare', type_name: null, tag_names: ['Bestseller', 'Black Friday'] });

describe('CSV (RFC 4180)', () => {
  it('reads quotes, commas, line breaks, CRLF and a byte order mark', () => {
    const text = '\uFEFFa,b,c\r\n"x, y","say ""hi""","two\r\nlines"\r\n,"",last\r\n';
    expect(parseCsv(text)).toEqual([
      ['a', 'b', 'c'],
      ['x, y', 'say "hi"', 'two\r\nlines'],
      ['', '', 'last'],
    ]);
    expect(parseCsv('a,b\nc,d')).toEqual([['a', 'b'], ['c', 'd']]);
  });

  it('writes what it reads back unchanged, quoting only where needed', () => {
    const records = [['id', 'text'], ['1', 'plain'], ['2', 'comma, "quote"\nand line'], ['3', ''], ['4', ' padded ']];
    const text = serialiseCsv(records);
    expect(text.split('\r\n')[1]).toBe('1,plain');
    expect(text).toContain('"comma, ""quote""\nand line"');
    expect(parseCsv(text)).toEqual(records);
  });

  it('refuses an unclosed quote, naming the record', () => {
    expect(() => parseCsv('a,b\r\n"open,b\r\n')).toThrow(CsvSyntaxError);
    try {
      parseCsv('a,b\r\n"open,b\r\n');
    } catch (error) {
      expect((error as CsvSyntaxError).record).toBe(2);
    }
  });
});

describe('the ad facts file', () => {
  it('exports the id first, the reference columns, then every fact, with a BOM; and reads back to no change', () => {
    const text = factsCsv([{ ad: ad(ID_A), facts: facts(ID_A) }]);
    expect(text.startsWith('\uFEFFid,brand,category,type,tags,platforms,placement,format,first_seen,last_seen,still_running,')).toBe(true);
    const records = parseCsv(text);
    expect(records[0]).toEqual([...CSV_COLUMNS]);
    expect(records[1]!.slice(0, 6)).toEqual([ID_A, 'Lumora, Inc.', 'Skincare', '', 'Bestseller|Black Friday', 'meta|instagram']);
    const read = readFactsFile(text);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(previewImport(read.file, new Map([[ID_A, facts(ID_A)]]), HOOKS)).toEqual({ changed: [], unchanged: 1, errors: [] });
    expect(factsCsvFileName(new Date('2026-11-26T10:00:00Z'))).toBe('obyect-ad-facts-2026-11-26.csv');
  });

  it("writes copy that a spreadsheet would run as a formula behind a quote, and reads it back exactly (OWASP's CSV injection)", () => {
    const copies = ['=HYPERLINK("https://evil.example","Click")', '@SUM(A1:A9)', '+1 555 0100', '-20% today', '\tTabbed', '\rReturn', "'Quoted", 'Plain'];
    const ads = copies.map((copy, index) => {
      const id = `${String(index).padStart(8, '0')}-1111-4111-8111-111111111111`;
      return { ad: { ...ad(id), brand_name: copy }, facts: facts(id, { headline: copy, primary_text: copy }) };
    });
    const text = factsCsv(ads);
    const records = parseCsv(text).slice(1);
    const headline = CSV_COLUMNS.indexOf('headline');
    expect(records.map((record) => record[headline])).toEqual([
      `'=HYPERLINK("https://evil.example","Click")`, "'@SUM(A1:A9)", "'+1 555 0100", "'-20% today", "'\tTabbed", "'\rReturn", "''Quoted", 'Plain',
    ]);
    // No cell of the file starts as a formula.
    expect(records.flat().filter((cell) => /^[=+\-@\t\r]/.test(cell))).toEqual([]);
    const read = readFactsFile(text);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.file.rows.map(({ cells }) => cells[headline])).toEqual(copies);
    expect(previewImport(read.file, new Map(ads.map(({ facts: own }) => [own.id, own])), HOOKS)).toEqual({ changed: [], unchanged: copies.length, errors: [] });
  });

  it('lists per ad only the facts that change, from and to, and sends only those', () => {
    const text = serialiseCsv([
      ['id', 'brand', 'offer', 'platforms', 'last_seen', 'hook', 'still_running'],
      [ID_A, 'Lumora', 'bundle', 'meta|instagram', '2026-10-20', 'before and after', 'false'],
      [ID_B, 'Lumora', 'discount', 'TikTok | meta', '2026-10-25', 'Social proof', 'false'],
      [ID_C, 'Lumora', 'discount', 'meta|instagram', '2026-10-20', 'Before and after', 'false'],
    ]);
    const read = readFactsFile(text);
    if (!read.ok) throw new Error('unreadable');
    const stored = new Map([ID_A, ID_B, ID_C].map((id) => [id, facts(id)]));
    const preview = previewImport(read.file, stored, HOOKS);
    expect(preview.errors).toEqual([]);
    expect(preview.unchanged).toBe(1);
    expect(preview.changed).toEqual([
      { row: 2, id: ID_A, brand: 'Lumora', changes: [{ column: 'offer', from: 'discount', to: 'bundle' }], facts: { offer: 'bundle' } },
      {
        row: 3,
        id: ID_B,
        brand: 'Lumora',
        changes: [
          { column: 'platforms', from: 'meta|instagram', to: 'tiktok|meta' },
          { column: 'last_seen', from: '2026-10-20', to: '2026-10-25' },
          { column: 'hook', from: 'Before and after', to: 'Social proof' },
        ],
        facts: { platforms: ['tiktok', 'meta'], last_seen: '2026-10-25', hook_id: 'h2' },
      },
    ]);
  });

  it('refuses each bad row by its number and rule', () => {
    const text = serialiseCsv([
      ['id', 'platforms', 'first_seen', 'last_seen', 'hook', 'headline'],
      [ID_A, 'meta|myspace', '2026-10-01', '2026-10-20', '', 'ok'],
      [ID_B, 'meta', '2026-10-10', '2026-10-02', '', 'ok'],
      ['44444444-4444-4444-8444-444444444444', 'meta', '', '', '', 'ok'],
      [ID_C, 'meta', '2026-02-30', '', 'Nope', 'x'.repeat(301)],
      [ID_A, 'meta', '', '', '', ''],
      ['not an id', '', '', '', '', ''],
      [ID_C, 'meta'],
    ]);
    const read = readFactsFile(text);
    if (!read.ok) throw new Error('unreadable');
    const stored = new Map([ID_A, ID_B, ID_C].map((id) => [id, facts(id)]));
    const preview = previewImport(read.file, stored, HOOKS);
    expect(preview.changed.map((change) => change.row)).toEqual([]);
    expect(preview.errors).toEqual([
      { row: 2, code: 'fact', column: 'platforms', rule: 'platforms' },
      { row: 3, code: 'fact', column: 'last_seen', rule: 'seen_order' },
      { row: 4, code: 'unknown_id' },
      { row: 5, code: 'fact', column: 'first_seen', rule: 'first_seen' },
      { row: 5, code: 'fact', column: 'headline', rule: 'headline' },
      { row: 5, code: 'fact', column: 'hook', rule: 'unknown_hook' },
      { row: 6, code: 'duplicate_id' },
      { row: 7, code: 'invalid_id' },
      { row: 8, code: 'cell_count' },
    ]);
  });

  it('refuses a file it cannot use, before reading any row', () => {
    expect(readFactsFile('id,colour\r\nx,red\r\n')).toEqual({ ok: false, problem: { code: 'unknown_column', column: 'colour' } });
    expect(readFactsFile('brand,offer\r\nx,none\r\n')).toEqual({ ok: false, problem: { code: 'no_id_column' } });
    expect(readFactsFile('id,offer,offer\r\n')).toEqual({ ok: false, problem: { code: 'duplicate_column', column: 'offer' } });
    expect(readFactsFile('id,offer\r\n')).toEqual({ ok: false, problem: { code: 'empty' } });
    expect(readFactsFile('id,offer\r\n"x,none\r\n')).toEqual({ ok: false, problem: { code: 'not_csv', record: 2 } });
    const many = serialiseCsv([['id'], ...Array.from({ length: 1001 }, () => [ID_A])]);
    expect(readFactsFile(many)).toEqual({ ok: false, problem: { code: 'too_many_rows', rows: 1001 } });
  });
});

describe('reading edited fact cells', () => {
  it('clears a fact with an empty cell and checks the dates against what is stored', () => {
    expect(readFactCells({ offer: '' }, facts(ID_A), HOOKS)).toEqual({
      facts: { offer: null },
      changes: [{ column: 'offer', from: 'discount', to: '' }],
      errors: [],
    });
    expect(readFactCells({ first_seen: '' }, facts(ID_A), HOOKS).errors).toEqual([{ column: 'first_seen', rule: 'last_seen_needs_first_seen' }]);
    expect(readFactCells({ still_running: 'maybe' }, facts(ID_A), HOOKS).errors).toEqual([{ column: 'still_running', rule: 'still_running' }]);
    expect(readFactCells({ country: 'us' }, facts(ID_A), HOOKS).errors).toEqual([{ column: 'country', rule: 'country' }]);
    expect(readFactCells({ landing_url: 'javascript:alert(1)' }, facts(ID_A), HOOKS).errors).toEqual([{ column: 'landing_url', rule: 'landing_url' }]);
  });
});
