import type { Queryable } from '../db/database.ts';
import { viewColumnOrigins } from './view-origins.ts';

/**
 * What the API knows of the exposed schema, read from the catalog like
 * PostgREST's schema cache: relations and their columns, keys, foreign-key
 * relationships (carried over to views through their base tables) and
 * functions. Nothing here is specific to this app's tables.
 */
export const EXPOSED_SCHEMA = 'public';

export interface Column {
  name: string;
  /** format_type: `uuid`, `text[]`, `timestamp with time zone` ... */
  type: string;
  /** pg_type.typname of the column's type (`_text` for text[]). */
  typeName: string;
  /** pg_type.typcategory: S string, A array, N numeric, B boolean, U user (json, uuid) ... */
  category: string;
  nullable: boolean;
  /** pg_get_expr of the column default, used for Prefer: missing=default. */
  defaultExpression: string | null;
  position: number;
}

export type RelationKind = 'table' | 'view' | 'materialized_view' | 'foreign_table' | 'partitioned_table';

export interface Relation {
  oid: string;
  name: string;
  kind: RelationKind;
  columns: Map<string, Column>;
  primaryKey: string[];
  uniqueKeys: string[][];
}

export type Cardinality = 'many-to-one' | 'one-to-many' | 'one-to-one' | 'many-to-many';

export interface Relationship {
  cardinality: Cardinality;
  origin: string;
  target: string;
  /** The foreign key's constraint name (for many-to-many: the target side's). */
  constraint: string;
  /** Joined pairwise: target.targetColumns[i] = origin.originColumns[i] (direct relationships). */
  originColumns: string[];
  targetColumns: string[];
  junction?: {
    relation: string;
    originConstraint: string;
    /** junction.columns[i] = origin.originColumns[i] */
    originColumns: string[];
    /** junction.columns[i] = target.targetColumns[i] */
    targetColumns: string[];
  };
  toOne: boolean;
}

export interface FunctionParameter {
  name: string;
  type: string;
  typeName: string;
  category: string;
  /** i in, o out, b inout, v variadic, t table column */
  mode: string;
  hasDefault: boolean;
}

export type ReturnShape = 'void' | 'scalar' | 'composite';

export interface FunctionInfo {
  oid: string;
  name: string;
  /** Input parameters in declaration order. */
  parameters: FunctionParameter[];
  returnsSet: boolean;
  returnShape: ReturnShape;
  returnType: string;
  returnTypeName: string;
  returnCategory: string;
  /** The public relation whose row type the function returns, if any: its relationships apply to the result. */
  resultRelation: string | null;
  /** Columns of a composite result. */
  resultColumns: Column[];
  volatility: 'i' | 's' | 'v';
  variadic: boolean;
  /** The API roles (anon, authenticated, service_role) that may execute it: only they are told its signature in a hint. */
  executableBy: string[];
}

export interface SchemaCache {
  relations: Map<string, Relation>;
  /** By origin relation name. */
  relationships: Map<string, Relationship[]>;
  functions: Map<string, FunctionInfo[]>;
  /** Type names accepted in `::cast` of a select. */
  typeNames: Set<string>;
  loadedAt: number;
}

const RELATION_KINDS: Record<string, RelationKind> = {
  r: 'table', v: 'view', m: 'materialized_view', f: 'foreign_table', p: 'partitioned_table',
};

const RELATIONS_SQL = `
  select c.oid::text as oid, c.relname as name, c.relkind::text as kind
    from pg_catalog.pg_class c
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
   where n.nspname = $1 and c.relkind in ('r', 'v', 'm', 'f', 'p')`;

const COLUMNS_SQL = `
  select a.attrelid::text as relation_oid, a.attname as name, a.attnum::int as position,
         pg_catalog.format_type(a.atttypid, a.atttypmod) as type, t.typname as type_name,
         t.typcategory::text as category, not a.attnotnull as nullable,
         pg_catalog.pg_get_expr(d.adbin, d.adrelid) as default_expression
    from pg_catalog.pg_attribute a
    join pg_catalog.pg_class c on c.oid = a.attrelid
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    join pg_catalog.pg_type t on t.oid = a.atttypid
    left join pg_catalog.pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
   where n.nspname = $1 and c.relkind in ('r', 'v', 'm', 'f', 'p') and a.attnum > 0 and not a.attisdropped
   order by a.attrelid, a.attnum`;

const KEYS_SQL = `
  select i.indrelid::text as relation_oid, i.indisprimary as is_primary,
         (select json_agg(a.attname order by k.ord)
            from unnest(i.indkey::int2[]) with ordinality as k (attnum, ord)
            join pg_catalog.pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum) as columns
    from pg_catalog.pg_index i
    join pg_catalog.pg_class c on c.oid = i.indrelid
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
   where n.nspname = $1 and i.indisunique and i.indpred is null and not (0 = any (i.indkey::int2[]))`;

const FOREIGN_KEYS_SQL = `
  select con.conname as name, con.conrelid::text as origin_oid, con.confrelid::text as target_oid,
         (select json_agg(a.attname order by k.ord)
            from unnest(con.conkey) with ordinality as k (attnum, ord)
            join pg_catalog.pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.attnum) as origin_columns,
         (select json_agg(a.attname order by k.ord)
            from unnest(con.confkey) with ordinality as k (attnum, ord)
            join pg_catalog.pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.attnum) as target_columns
    from pg_catalog.pg_constraint con
    join pg_catalog.pg_class src on src.oid = con.conrelid
    join pg_catalog.pg_namespace sn on sn.oid = src.relnamespace
    join pg_catalog.pg_class tgt on tgt.oid = con.confrelid
    join pg_catalog.pg_namespace tn on tn.oid = tgt.relnamespace
   where con.contype = 'f' and sn.nspname = $1 and tn.nspname = $1
   order by con.conname`;

const VIEW_RULES_SQL = `
  select c.oid::text as view_oid, r.ev_action::text as action
    from pg_catalog.pg_rewrite r
    join pg_catalog.pg_class c on c.oid = r.ev_class
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
   where n.nspname = $1 and c.relkind in ('v', 'm') and r.rulename = '_RETURN'`;

const FUNCTIONS_SQL = `
  select p.oid::text as oid, p.proname as name, p.proretset as returns_set, p.provolatile::text as volatility,
         pg_catalog.format_type(p.prorettype, null) as return_type, rt.typname as return_type_name,
         rt.typtype::text as return_typtype, rt.typcategory::text as return_category,
         rt.typrelid::text as return_relation_oid, p.pronargdefaults::int as default_count,
         p.provariadic <> 0 as variadic,
         array(select r.rolname::text from pg_catalog.pg_roles r
                where r.rolname in ('anon', 'authenticated', 'service_role')
                  and pg_catalog.has_function_privilege(r.oid, p.oid, 'EXECUTE')) as executable_by,
         coalesce((select json_agg(json_build_object(
                      'name', coalesce(p.proargnames[k.ord], ''),
                      'type', pg_catalog.format_type(k.type_oid, null),
                      'type_name', t.typname,
                      'category', t.typcategory::text,
                      'mode', coalesce(p.proargmodes[k.ord]::text, 'i')) order by k.ord)
                     from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) with ordinality as k (type_oid, ord)
                     join pg_catalog.pg_type t on t.oid = k.type_oid), '[]') as args,
         coalesce((select json_agg(json_build_object(
                      'name', a.attname, 'type', pg_catalog.format_type(a.atttypid, a.atttypmod),
                      'type_name', t.typname, 'category', t.typcategory::text, 'position', a.attnum) order by a.attnum)
                     from pg_catalog.pg_attribute a
                     join pg_catalog.pg_type t on t.oid = a.atttypid
                    where a.attrelid = rt.typrelid and a.attnum > 0 and not a.attisdropped), '[]') as composite_columns
    from pg_catalog.pg_proc p
    join pg_catalog.pg_namespace n on n.oid = p.pronamespace
    join pg_catalog.pg_type rt on rt.oid = p.prorettype
   where n.nspname = $1 and p.prokind = 'f' and rt.typname not in ('trigger', 'event_trigger')`;

const TYPE_NAMES_SQL = `
  select distinct t.typname as name
    from pg_catalog.pg_type t
    join pg_catalog.pg_namespace n on n.oid = t.typnamespace
   where n.nspname in ('pg_catalog', $1) and t.typname !~ '^_' and t.typtype in ('b', 'e', 'r', 'd', 'm')`;

/** SQL's spellings of built-in types that pg_type lists under other names. */
const SQL_TYPE_ALIASES = ['integer', 'int', 'smallint', 'bigint', 'real', 'float', 'boolean', 'decimal', 'character', 'dec'];

interface RelationRow { oid: string; name: string; kind: string }
interface ColumnRow {
  relation_oid: string; name: string; position: number; type: string; type_name: string; category: string;
  nullable: boolean; default_expression: string | null;
}
interface KeyRow { relation_oid: string; is_primary: boolean; columns: string[] }
interface ForeignKeyRow { name: string; origin_oid: string; target_oid: string; origin_columns: string[]; target_columns: string[] }
interface ViewRuleRow { view_oid: string; action: string }
interface FunctionRow {
  oid: string; name: string; returns_set: boolean; volatility: 'i' | 's' | 'v'; return_type: string; return_type_name: string;
  return_typtype: string; return_category: string; return_relation_oid: string; default_count: number; variadic: boolean;
  executable_by: string[];
  args: { name: string; type: string; type_name: string; category: string; mode: string }[];
  composite_columns: { name: string; type: string; type_name: string; category: string; position: number }[];
}

/** One side of a foreign key as seen from a relation: the relation and its columns standing for the key's columns. */
interface KeySide {
  relation: string;
  columns: string[];
}

export async function loadSchemaCache(db: Queryable, schema = EXPOSED_SCHEMA): Promise<SchemaCache> {
  const [relationRows, columnRows, keyRows, foreignKeyRows, viewRuleRows, functionRows, typeRows] = [
    (await db.query<RelationRow>(RELATIONS_SQL, [schema])).rows,
    (await db.query<ColumnRow>(COLUMNS_SQL, [schema])).rows,
    (await db.query<KeyRow>(KEYS_SQL, [schema])).rows,
    (await db.query<ForeignKeyRow>(FOREIGN_KEYS_SQL, [schema])).rows,
    (await db.query<ViewRuleRow>(VIEW_RULES_SQL, [schema])).rows,
    (await db.query<FunctionRow>(FUNCTIONS_SQL, [schema])).rows,
    (await db.query<{ name: string }>(TYPE_NAMES_SQL, [schema])).rows,
  ];

  const byOid = new Map<string, Relation>();
  const relations = new Map<string, Relation>();
  for (const row of relationRows) {
    const relation: Relation = {
      oid: row.oid, name: row.name, kind: RELATION_KINDS[row.kind]!, columns: new Map(), primaryKey: [], uniqueKeys: [],
    };
    byOid.set(row.oid, relation);
    relations.set(row.name, relation);
  }
  for (const row of columnRows) {
    byOid.get(row.relation_oid)?.columns.set(row.name, {
      name: row.name, type: row.type, typeName: row.type_name, category: row.category, nullable: row.nullable,
      defaultExpression: row.default_expression, position: row.position,
    });
  }
  for (const row of keyRows) {
    const relation = byOid.get(row.relation_oid);
    if (!relation || !row.columns) continue;
    if (row.is_primary) relation.primaryKey = row.columns;
    relation.uniqueKeys.push(row.columns);
  }

  const origins = viewOrigins(viewRuleRows, byOid);
  const relationships = deriveRelationships(foreignKeyRows, byOid, origins);

  const functions = new Map<string, FunctionInfo[]>();
  for (const row of functionRows) {
    const info = functionInfo(row, byOid);
    functions.set(info.name, [...(functions.get(info.name) ?? []), info]);
  }

  return {
    relations,
    relationships,
    functions,
    typeNames: new Set([...typeRows.map((row) => row.name), ...SQL_TYPE_ALIASES]),
    loadedAt: Date.now(),
  };
}

/** For each view: view column name -> [base relation name, base column name], resolved through chains of views. */
function viewOrigins(rows: ViewRuleRow[], byOid: Map<string, Relation>): Map<string, Map<string, [string, string][]>> {
  const direct = new Map<string, Map<string, [string, string]>>();
  for (const row of rows) {
    const view = byOid.get(row.view_oid);
    if (!view) continue;
    const columns = new Map<string, [string, string]>();
    for (const origin of viewColumnOrigins(row.action)) {
      const base = byOid.get(origin.originOid);
      const baseColumn = base && [...base.columns.values()].find((column) => column.position === origin.originPosition);
      if (base && baseColumn && view.columns.has(origin.column)) columns.set(origin.column, [base.name, baseColumn.name]);
    }
    direct.set(view.name, columns);
  }
  // Every relation a view column stands for: the view itself, then each relation down the chain.
  const resolved = new Map<string, Map<string, [string, string][]>>();
  for (const [view, columns] of direct) {
    const chains = new Map<string, [string, string][]>();
    for (const [column, origin] of columns) {
      const chain: [string, string][] = [];
      let current: [string, string] | undefined = origin;
      while (current && chain.length < 16 && !chain.some(([r, c]) => r === current![0] && c === current![1])) {
        chain.push(current);
        current = direct.get(current[0])?.get(current[1]);
      }
      chains.set(column, chain);
    }
    resolved.set(view, chains);
  }
  return resolved;
}

function deriveRelationships(
  foreignKeys: ForeignKeyRow[],
  byOid: Map<string, Relation>,
  origins: Map<string, Map<string, [string, string][]>>,
): Map<string, Relationship[]> {
  const all: Relationship[] = [];
  // The relation itself and every view that exposes all of the given columns of it.
  const sidesOf = (relation: string, columns: string[]): KeySide[] => {
    const sides: KeySide[] = [{ relation, columns }];
    for (const [view, viewColumns] of origins) {
      const mapped = columns.map((column) =>
        [...viewColumns].find(([, chain]) => chain.some(([r, c]) => r === relation && c === column))?.[0]);
      if (mapped.every((name): name is string => name !== undefined)) sides.push({ relation: view, columns: mapped });
    }
    return sides;
  };
  const isUniqueIn = (relation: Relation, columns: string[]) =>
    relation.uniqueKeys.some((key) => key.length === columns.length && key.every((column) => columns.includes(column)));

  const direct: { fk: ForeignKeyRow; origin: Relation; target: Relation }[] = [];
  for (const fk of foreignKeys) {
    const origin = byOid.get(fk.origin_oid);
    const target = byOid.get(fk.target_oid);
    if (!origin || !target || !fk.origin_columns || !fk.target_columns) continue;
    direct.push({ fk, origin, target });
    const oneToOne = isUniqueIn(origin, fk.origin_columns);
    for (const originSide of sidesOf(origin.name, fk.origin_columns)) {
      for (const targetSide of sidesOf(target.name, fk.target_columns)) {
        all.push({
          cardinality: oneToOne ? 'one-to-one' : 'many-to-one', origin: originSide.relation, target: targetSide.relation,
          constraint: fk.name, originColumns: originSide.columns, targetColumns: targetSide.columns, toOne: true,
        });
        all.push({
          cardinality: oneToOne ? 'one-to-one' : 'one-to-many', origin: targetSide.relation, target: originSide.relation,
          constraint: fk.name, originColumns: targetSide.columns, targetColumns: originSide.columns, toOne: oneToOne,
        });
      }
    }
  }

  // A junction table: two foreign keys whose columns are all part of its primary key.
  const byJunction = new Map<string, typeof direct>();
  for (const entry of direct) {
    if (entry.origin.kind !== 'table' && entry.origin.kind !== 'partitioned_table') continue;
    byJunction.set(entry.origin.name, [...(byJunction.get(entry.origin.name) ?? []), entry]);
  }
  for (const [junction, keys] of byJunction) {
    const primaryKey = keys[0]!.origin.primaryKey;
    for (const left of keys) {
      for (const right of keys) {
        if (left === right) continue;
        const columns = [...left.fk.origin_columns, ...right.fk.origin_columns];
        if (!columns.every((column) => primaryKey.includes(column))) continue;
        for (const originSide of sidesOf(left.target.name, left.fk.target_columns)) {
          for (const targetSide of sidesOf(right.target.name, right.fk.target_columns)) {
            all.push({
              cardinality: 'many-to-many', origin: originSide.relation, target: targetSide.relation,
              constraint: right.fk.name, originColumns: originSide.columns, targetColumns: targetSide.columns, toOne: false,
              junction: {
                relation: junction, originConstraint: left.fk.name,
                originColumns: left.fk.origin_columns, targetColumns: right.fk.origin_columns,
              },
            });
          }
        }
      }
    }
  }

  const byOrigin = new Map<string, Relationship[]>();
  for (const relationship of all) {
    byOrigin.set(relationship.origin, [...(byOrigin.get(relationship.origin) ?? []), relationship]);
  }
  return byOrigin;
}

function functionInfo(row: FunctionRow, byOid: Map<string, Relation>): FunctionInfo {
  const inputs = row.args.filter((arg) => arg.mode === 'i' || arg.mode === 'b' || arg.mode === 'v');
  const outputs = row.args.filter((arg) => arg.mode === 'o' || arg.mode === 'b' || arg.mode === 't');
  const parameters: FunctionParameter[] = inputs.map((arg, index) => ({
    name: arg.name, type: arg.type, typeName: arg.type_name, category: arg.category, mode: arg.mode,
    hasDefault: index >= inputs.length - row.default_count,
  }));
  const toColumn = (column: { name: string; type: string; type_name: string; category: string }, position: number): Column => ({
    name: column.name, type: column.type, typeName: column.type_name, category: column.category, nullable: true,
    defaultExpression: null, position,
  });
  let returnShape: ReturnShape = 'scalar';
  let resultColumns: Column[] = [];
  if (row.return_type_name === 'void') {
    returnShape = 'void';
  } else if (row.return_typtype === 'c') {
    returnShape = 'composite';
    resultColumns = row.composite_columns.map((column) => toColumn(column, column.position));
  } else if (row.return_type_name === 'record') {
    returnShape = 'composite';
    resultColumns = outputs.map((arg, index) => toColumn(arg, index + 1));
  }
  const resultRelation = row.return_typtype === 'c' ? byOid.get(row.return_relation_oid)?.name ?? null : null;
  return {
    oid: row.oid, name: row.name, parameters, returnsSet: row.returns_set, returnShape, returnType: row.return_type,
    returnTypeName: row.return_type_name, returnCategory: row.return_category, resultRelation, resultColumns,
    volatility: row.volatility, variadic: row.variadic, executableBy: row.executable_by ?? [],
  };
}
