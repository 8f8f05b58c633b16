import { adFactFields, AD_PLATFORMS, type AdFactsChange } from '../../../lib/ad-facts.ts';
import type { AdminAdFacts } from '../api/get-admin-ad-facts.ts';
import type { CatalogOption } from '../api/get-catalog-options.ts';
import { ADMIN_TEXTS } from '../../../lib/admin-texts.ts';

/**
 * The facts written as text, one cell each: the CSV's fact columns and the
 * table's fact editor share these forms (docs/decisions/0033). An empty cell
 * clears the fact; platforms are joined by '|', dates are YYYY-MM-DD, the hook
 * is its name, still running is true or false.
 */
export const FACT_COLUMNS = [
  'platforms',
  'placement',
  'format',
  'first_seen',
  'last_seen',
  'still_running',
  'landing_url',
  'primary_text',
  'headline',
  'call_to_action',
  'offer',
  'hook',
  'language',
  'country',
] as const;
export type FactColumn = (typeof FACT_COLUMNS)[number];
export const PLATFORM_SEPARATOR = '|';

export type FactCells = Partial<Record<FactColumn, string>>;

/** Why a cell or a row's facts were refused; each has its sentence in ADMIN_TEXTS.adminFacts.rules. */
export type FactRule = FactColumn | 'seen_order' | 'last_seen_needs_first_seen' | 'running_needs_first_seen' | 'unknown_hook';

export interface FactError {
  column: FactColumn;
  rule: FactRule;
}

export interface FactChange {
  column: FactColumn;
  from: string;
  to: string;
}

export interface ReadFacts {
  /** admin_update_ads' p_facts: only the facts that change. */
  facts: AdFactsChange;
  changes: FactChange[];
  errors: FactError[];
}

/** A fact of the ad as its cell reads. */
export function factCell(ad: AdminAdFacts, column: FactColumn): string {
  switch (column) {
    case 'platforms':
      return ad.platforms?.join(PLATFORM_SEPARATOR) ?? '';
    case 'still_running':
      return ad.still_running ? 'true' : 'false';
    case 'hook':
      return ad.hook_name ?? '';
    default:
      return ad[column] ?? '';
  }
}

export const factCellsOf = (ad: AdminAdFacts): Record<FactColumn, string> =>
  Object.fromEntries(FACT_COLUMNS.map((column) => [column, factCell(ad, column)])) as Record<FactColumn, string>;

type CellValue = { ok: true; value: unknown; cell: string } | { ok: false; rule: FactRule };

/** One cell as the fact it sets, with the cell written the way an export writes it. */
function readCell(column: FactColumn, raw: string, hooks: readonly CatalogOption[]): CellValue {
  const text = raw.trim();
  if (column === 'still_running') {
    const lower = text.toLowerCase();
    if (lower === '' || lower === 'false') return { ok: true, value: false, cell: 'false' };
    if (lower === 'true') return { ok: true, value: true, cell: 'true' };
    return { ok: false, rule: column };
  }
  if (text === '') return { ok: true, value: null, cell: '' };
  if (column === 'hook') {
    const hook = hooks.find((option) => option.name.localeCompare(text, undefined, { sensitivity: 'base' }) === 0);
    return hook ? { ok: true, value: hook.id, cell: hook.name } : { ok: false, rule: 'unknown_hook' };
  }
  if (column === 'platforms') {
    const names = text.split(PLATFORM_SEPARATOR).map((name) => name.trim().toLowerCase());
    const parsed = adFactFields.platforms.safeParse(names);
    if (!parsed.success || !names.every((name) => (AD_PLATFORMS as readonly string[]).includes(name))) return { ok: false, rule: column };
    return { ok: true, value: names, cell: names.join(PLATFORM_SEPARATOR) };
  }
  // Free texts keep their own spaces; the rest are read trimmed.
  const value = column === 'primary_text' || column === 'headline' ? raw : text;
  const parsed = adFactFields[column].safeParse(value);
  return parsed.success ? { ok: true, value, cell: value } : { ok: false, rule: column };
}

/**
 * The cells given, read against the ad's stored facts: what changes (cells
 * left out keep their fact) and what is refused, each refusal by its rule.
 * The rules between the dates and still running are checked on the facts the
 * ad would have once saved.
 */
export function readFactCells(cells: FactCells, ad: AdminAdFacts, hooks: readonly CatalogOption[]): ReadFacts {
  const facts: Record<string, unknown> = {};
  const changes: FactChange[] = [];
  const errors: FactError[] = [];
  for (const column of FACT_COLUMNS) {
    const raw = cells[column];
    if (raw === undefined) continue;
    const read = readCell(column, raw, hooks);
    if (!read.ok) {
      errors.push({ column, rule: read.rule });
      continue;
    }
    const from = factCell(ad, column);
    if (read.cell === from) continue;
    facts[column === 'hook' ? 'hook_id' : column] = read.value;
    changes.push({ column, from, to: read.cell });
  }
  const datesRead = !errors.some((error) => error.column === 'first_seen' || error.column === 'last_seen' || error.column === 'still_running');
  const datesChanged = 'first_seen' in facts || 'last_seen' in facts || 'still_running' in facts;
  if (datesRead && datesChanged) {
    const first = ('first_seen' in facts ? facts.first_seen : ad.first_seen) as string | null;
    const last = ('last_seen' in facts ? facts.last_seen : ad.last_seen) as string | null;
    const running = ('still_running' in facts ? facts.still_running : ad.still_running) as boolean;
    if (first && last && first > last) errors.push({ column: 'last_seen', rule: 'seen_order' });
    if (last && !first) errors.push({ column: 'first_seen', rule: 'last_seen_needs_first_seen' });
    if (running && !first) errors.push({ column: 'first_seen', rule: 'running_needs_first_seen' });
  }
  return { facts: facts as AdFactsChange, changes, errors };
}
