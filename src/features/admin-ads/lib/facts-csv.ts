import type { AdFactsChange } from '../../../lib/ad-facts.ts';
import { ADMIN_BATCH_MAX } from '../../../lib/constants.ts';
import type { AdminAdFacts } from '../api/get-admin-ad-facts.ts';
import type { CatalogOption } from '../api/get-catalog-options.ts';
import { CSV_BOM, CsvSyntaxError, fromSpreadsheetText, parseCsv, serialiseCsv, spreadsheetText } from './csv.ts';
import { FACT_COLUMNS, factCell, readFactCells, type FactChange, type FactColumn, type FactRule } from './fact-cells.ts';

/**
 * The ad facts file (docs/decisions/0033): the ad's id first, then its brand,
 * category, type and tags for reference (never imported), then every fact.
 */
export const REFERENCE_COLUMNS = ['brand', 'category', 'type', 'tags'] as const;
export const CSV_COLUMNS = ['id', ...REFERENCE_COLUMNS, ...FACT_COLUMNS] as const;
export const TAG_SEPARATOR = '|';
/** At most this many ads go out in one export and come back in one import. */
export const FACTS_CSV_MAX_ROWS = ADMIN_BATCH_MAX;
export const FACTS_CSV_MAX_BYTES = 2 * 1024 * 1024;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface ExportedAd {
  id: string;
  brand_name: string;
  category_name: string;
  type_name: string | null;
  tag_names: string[];
}

/** The file's text: a byte order mark, so spreadsheets read it as UTF-8, then the header and a record per ad. */
export function factsCsv(ads: readonly { ad: ExportedAd; facts: AdminAdFacts }[]): string {
  const records = ads.map(({ ad, facts }) => [
    ad.id,
    ad.brand_name,
    ad.category_name,
    ad.type_name ?? '',
    ad.tag_names.join(TAG_SEPARATOR),
    ...FACT_COLUMNS.map((column) => factCell(facts, column)),
  ].map(spreadsheetText));
  return CSV_BOM + serialiseCsv([[...CSV_COLUMNS], ...records]);
}

/** 'obyect-ad-facts-2026-11-26.csv', the UTC day. */
export const factsCsvFileName = (now: Date = new Date()) => `obyect-ad-facts-${now.toISOString().slice(0, 10)}.csv`;

export type FileProblem =
  | { code: 'too_large' }
  | { code: 'not_csv'; record: number }
  | { code: 'empty' }
  | { code: 'no_id_column' }
  | { code: 'unknown_column'; column: string }
  | { code: 'duplicate_column'; column: string }
  | { code: 'too_many_rows'; rows: number };

export interface FactsFileRow {
  /** The record's number as a spreadsheet shows it: the header is row 1. */
  row: number;
  cells: string[];
}

export interface FactsFile {
  header: string[];
  rows: FactsFileRow[];
}

export type FactsFileResult = { ok: true; file: FactsFile } | { ok: false; problem: FileProblem };

/** The file's header and rows, or why it cannot be read at all. Blank records are skipped. */
export function readFactsFile(text: string): FactsFileResult {
  let records: string[][];
  try {
    records = parseCsv(text);
  } catch (error) {
    if (error instanceof CsvSyntaxError) return { ok: false, problem: { code: 'not_csv', record: error.record } };
    throw error;
  }
  const numbered = records
    .map((cells, index) => ({ row: index + 1, cells: cells.map(fromSpreadsheetText) }))
    .filter(({ cells }) => cells.some((cell) => cell.trim() !== ''));
  const [headerRecord, ...rows] = numbered;
  if (!headerRecord) return { ok: false, problem: { code: 'empty' } };
  const header = headerRecord.cells.map((name) => name.trim().toLowerCase());
  const known: readonly string[] = CSV_COLUMNS;
  const unknown = header.find((name) => !known.includes(name));
  if (unknown !== undefined) return { ok: false, problem: { code: 'unknown_column', column: unknown } };
  const twice = header.find((name, index) => header.indexOf(name) !== index);
  if (twice !== undefined) return { ok: false, problem: { code: 'duplicate_column', column: twice } };
  if (!header.includes('id')) return { ok: false, problem: { code: 'no_id_column' } };
  if (rows.length === 0) return { ok: false, problem: { code: 'empty' } };
  if (rows.length > FACTS_CSV_MAX_ROWS) return { ok: false, problem: { code: 'too_many_rows', rows: rows.length } };
  return { ok: true, file: { header, rows } };
}

/** The ids the file names, to read their stored facts. */
export function idsOfFile(file: FactsFile): string[] {
  const at = file.header.indexOf('id');
  return [...new Set(file.rows.map(({ cells }) => (cells[at] ?? '').trim()).filter((id) => UUID.test(id)))].map((id) => id.toLowerCase());
}

/**
 * Why a row was refused: a fact's rule (with its column), a row's shape or id,
 * or, once applied, the server's code (with the rule's constraint when a
 * table check refused it).
 */
export type ImportRowError =
  | { row: number; code: 'fact'; column: FactColumn; rule: FactRule }
  | { row: number; code: 'cell_count' | 'invalid_id' | 'duplicate_id' | 'unknown_id' }
  | { row: number; code: 'server'; serverCode: string; constraint: string | null };

export interface ImportChange {
  row: number;
  id: string;
  /** The brand the file names, to recognise the ad by. */
  brand: string;
  changes: FactChange[];
  facts: AdFactsChange;
}

export interface ImportPreview {
  changed: ImportChange[];
  /** Rows that change nothing: counted, not listed. */
  unchanged: number;
  errors: ImportRowError[];
}

/** Every row read against the stored facts of its ad: what would change, and every refusal. */
export function previewImport(file: FactsFile, stored: ReadonlyMap<string, AdminAdFacts>, hooks: readonly CatalogOption[]): ImportPreview {
  const preview: ImportPreview = { changed: [], unchanged: 0, errors: [] };
  const idAt = file.header.indexOf('id');
  const brandAt = file.header.indexOf('brand');
  const seen = new Set<string>();
  for (const { row, cells } of file.rows) {
    if (cells.length !== file.header.length) {
      preview.errors.push({ row, code: 'cell_count' });
      continue;
    }
    const id = cells[idAt]!.trim().toLowerCase();
    if (!UUID.test(id)) {
      preview.errors.push({ row, code: 'invalid_id' });
      continue;
    }
    if (seen.has(id)) {
      preview.errors.push({ row, code: 'duplicate_id' });
      continue;
    }
    seen.add(id);
    const ad = stored.get(id);
    if (!ad) {
      preview.errors.push({ row, code: 'unknown_id' });
      continue;
    }
    const factCells = Object.fromEntries(
      file.header.flatMap((name, index) => ((FACT_COLUMNS as readonly string[]).includes(name) ? [[name, cells[index]!]] : [])),
    );
    const read = readFactCells(factCells, ad, hooks);
    preview.errors.push(...read.errors.map((error) => ({ row, code: 'fact' as const, ...error })));
    if (read.errors.length > 0) continue;
    if (read.changes.length === 0) preview.unchanged += 1;
    else preview.changed.push({ row, id, brand: brandAt >= 0 ? cells[brandAt]! : '', changes: read.changes, facts: read.facts });
  }
  return preview;
}
