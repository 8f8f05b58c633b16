/** A postgres_changes filter (`column=op.value`), as realtime-js sends it. */
export interface ChangeFilter {
  column: string;
  op: 'eq' | 'neq' | 'lt' | 'lte' | 'gt' | 'gte' | 'in';
  values: string[];
}

const OPS = new Set(['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'in']);

/** Parses a filter; returns null for no filter and throws for one the server does not support. */
export function parseChangeFilter(filter: string | undefined | null): ChangeFilter | null {
  if (!filter) return null;
  const match = /^([A-Za-z_][A-Za-z0-9_]*)=([a-z]+)\.(.*)$/s.exec(filter);
  if (!match || !OPS.has(match[2]!)) throw new Error(`Unsupported filter: ${filter}`);
  const op = match[2] as ChangeFilter['op'];
  const raw = match[3]!;
  if (op === 'in') {
    const list = /^\((.*)\)$/s.exec(raw);
    if (!list) throw new Error(`Unsupported filter: ${filter}`);
    return { column: match[1]!, op, values: list[1]!.split(',').map((value) => value.trim().replace(/^"(.*)"$/, '$1')) };
  }
  return { column: match[1]!, op, values: [raw] };
}

const asComparable = (value: unknown) => (typeof value === 'number' ? value : String(value));

export function rowMatches(filter: ChangeFilter | null, row: Record<string, unknown>): boolean {
  if (!filter) return true;
  if (!(filter.column in row)) return false;
  const value = row[filter.column];
  if (value === null || value === undefined) return false;
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  const target = filter.values[0]!;
  const numeric = typeof value === 'number' ? Number(target) : null;
  const left = asComparable(value);
  const right = numeric !== null && !Number.isNaN(numeric) ? numeric : target;
  switch (filter.op) {
    case 'eq':
      return text === target;
    case 'neq':
      return text !== target;
    case 'in':
      return filter.values.includes(text);
    case 'lt':
      return left < right;
    case 'lte':
      return left <= right;
    case 'gt':
      return left > right;
    case 'gte':
      return left >= right;
  }
}
