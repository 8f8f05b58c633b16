import { RestError } from './rest-error.ts';
import type { PlanNode } from './read-plan.ts';
import { renderRootConditions } from './read-sql.ts';
import { EXPOSED_SCHEMA, type Relation } from './schema-cache.ts';
import { qualified, quoteIdent, type SqlParameters } from './sql-parameters.ts';

/**
 * INSERT (with ON CONFLICT for upserts), UPDATE and DELETE statements. The
 * payload travels as one jsonb parameter and PostgreSQL converts each value
 * to its column's type (jsonb_populate_record), as PostgREST does.
 */
export type Resolution = 'merge-duplicates' | 'ignore-duplicates';

export interface InsertOptions {
  rows: Record<string, unknown>[];
  /** The columns written, already checked against the relation. */
  columns: string[];
  /** Prefer: missing=default: a key absent from a row takes the column default instead of null. */
  missingDefault: boolean;
  resolution?: Resolution;
  onConflict?: string[];
}

export const payloadColumnNotFound = (relation: string, column: string) =>
  new RestError(400, 'PGRST204', `Could not find the '${column}' column of '${relation}' in the schema cache`);

export function checkColumns(relation: Relation, columns: string[]): void {
  for (const column of columns) if (!relation.columns.has(column)) throw payloadColumnNotFound(relation.name, column);
}

/** RETURNING clause: '' (nothing), every column, or the listed ones of the alias. */
export function returningSql(alias: string | null, columns: string[] | '*' | null): string {
  if (columns === null) return '';
  const prefix = alias ? `${quoteIdent(alias)}.` : '';
  if (columns === '*') return ` returning ${prefix}*`;
  if (columns.length === 0) return ' returning 1 as pgrst_row';
  return ` returning ${columns.map((column) => `${prefix}${quoteIdent(column)}`).join(', ')}`;
}

export function insertSql(relation: Relation, options: InsertOptions, returning: string[] | '*' | null, sql: SqlParameters): string {
  const target = qualified(EXPOSED_SCHEMA, relation.name);
  const document = sql.add(JSON.stringify(options.rows));
  const values = options.columns.map((name) => {
    const value = `pgrst_row.${quoteIdent(name)}`;
    if (!options.missingDefault) return value;
    const fallback = relation.columns.get(name)!.defaultExpression ?? 'null';
    return `case when pgrst_document.value ? ${sql.add(name)}::text then ${value} else ${fallback} end`;
  });
  const columnList = options.columns.length ? ` (${options.columns.map(quoteIdent).join(', ')})` : '';
  let statement = `insert into ${target}${columnList} select ${values.join(', ')} `
    + `from jsonb_array_elements(${document}::jsonb) with ordinality as pgrst_document (value, position) `
    + `cross join lateral jsonb_populate_record(null::${target}, pgrst_document.value) as pgrst_row `
    + 'order by pgrst_document.position';
  if (options.resolution) statement += conflictSql(relation, options);
  return statement + returningSql(null, returning);
}

function conflictSql(relation: Relation, options: InsertOptions): string {
  const conflictColumns = options.onConflict ?? relation.primaryKey;
  if (conflictColumns.length === 0) {
    if (options.resolution === 'ignore-duplicates') return ' on conflict do nothing';
    throw new RestError(400, 'PGRST100', `"failed to parse on_conflict"`,
      `'${relation.name}' has no primary key: name the unique columns to merge on with on_conflict`);
  }
  const target = `(${conflictColumns.map(quoteIdent).join(', ')})`;
  if (options.resolution === 'ignore-duplicates') return ` on conflict ${target} do nothing`;
  // The conflict columns are equal on both rows; setting them would need UPDATE rights on keys.
  const updated = options.columns.filter((column) => !conflictColumns.includes(column));
  const assignments = (updated.length ? updated : conflictColumns.slice(0, 1))
    .map((column) => `${quoteIdent(column)} = excluded.${quoteIdent(column)}`);
  return ` on conflict ${target} do update set ${assignments.join(', ')}`;
}

export function updateSql(
  relation: Relation,
  root: PlanNode,
  body: Record<string, unknown>,
  columns: string[],
  returning: string[] | '*' | null,
  sql: SqlParameters,
): string {
  const target = qualified(EXPOSED_SCHEMA, relation.name);
  const document = sql.add(JSON.stringify(body));
  const assignments = columns.map((column) => `${quoteIdent(column)} = pgrst_body.${quoteIdent(column)}`);
  const conditions = renderRootConditions(root, sql);
  return `update ${target} as ${quoteIdent(root.alias)} set ${assignments.join(', ')} `
    + `from jsonb_populate_record(null::${target}, ${document}::jsonb) as pgrst_body`
    + (conditions.length ? ` where ${conditions.join(' and ')}` : '')
    + returningSql(root.alias, returning);
}

export function deleteSql(relation: Relation, root: PlanNode, returning: string[] | '*' | null, sql: SqlParameters): string {
  const conditions = renderRootConditions(root, sql);
  return `delete from ${qualified(EXPOSED_SCHEMA, relation.name)} as ${quoteIdent(root.alias)}`
    + (conditions.length ? ` where ${conditions.join(' and ')}` : '')
    + returningSql(root.alias, returning);
}
