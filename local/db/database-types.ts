import type { Queryable } from './database.ts';

/**
 * The `Database` type of the public schema, written in the format of `supabase gen types typescript` (tables and
 * views with their Row, Insert, Update and Relationships, functions with their Args and Returns, enums), from the
 * catalog of a migrated database. `npm run db:types` writes it to src/lib/database.types.ts; a test fails when the
 * committed file is not what the migrations make. PostgreSQL's types map to TypeScript as Supabase's generator maps
 * them: numbers (int8 too), strings (text, uuid, dates and times, bytea), Json (json, jsonb), arrays of those, and
 * `unknown` for the rest (tsvector, cube, bit). Two additions: an argument whose default is NULL may be null, and an
 * int8 argument or written column may be a string (a fingerprint's 64-bit hash is one).
 */
export async function databaseTypes(db: Queryable): Promise<string> {
  const enums = await enumsOf(db);
  const tsType = (type: string, arrayDims = 0): string => {
    if (type.startsWith('_')) return tsType(type.slice(1), arrayDims + 1);
    let base: string;
    if (enums.has(type)) base = `Database['public']['Enums']['${type}']`;
    else if (type === 'bool') base = 'boolean';
    else if (['int2', 'int4', 'int8', 'float4', 'float8', 'numeric', 'oid'].includes(type)) base = 'number';
    else if (['bytea', 'bpchar', 'char', 'varchar', 'text', 'citext', 'name', 'date', 'time', 'timetz', 'timestamp', 'timestamptz', 'uuid', 'interval', 'inet'].includes(type)) base = 'string';
    else if (type === 'json' || type === 'jsonb') base = 'Json';
    else if (type === 'void') base = 'undefined';
    else if (type === 'record') base = 'Record<string, unknown>';
    else base = 'unknown';
    return arrayDims > 0 ? `${base}${'[]'.repeat(arrayDims)}` : base;
  };

  const relations = (
    await db.query<{ name: string; kind: string; column: string | null; type: string | null; nullable: boolean; has_default: boolean; generated: boolean }>(
      `select c.relname as name, c.relkind::text as kind, a.attname as column, t.typname as type, not a.attnotnull as nullable,
              (a.atthasdef or a.attidentity <> '') as has_default, a.attgenerated <> '' as generated
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
         left join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
         left join pg_type t on t.oid = a.atttypid
        where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm')
        order by c.relname, a.attnum`,
    )
  ).rows;
  const relationships = (
    await db.query<{ table: string; name: string; columns: string[]; referenced: string; referenced_columns: string[]; one_to_one: boolean }>(
      `select c.relname as table, k.conname as name,
              array(select a.attname::text from unnest(k.conkey) with ordinality x (num, ord) join pg_attribute a on a.attrelid = k.conrelid and a.attnum = x.num order by x.ord)::text[] as columns,
              r.relname as referenced,
              array(select a.attname::text from unnest(k.confkey) with ordinality x (num, ord) join pg_attribute a on a.attrelid = k.confrelid and a.attnum = x.num order by x.ord)::text[] as referenced_columns,
              exists (select 1 from pg_constraint u where u.conrelid = k.conrelid and u.contype in ('p', 'u')
                       and u.conkey::int2[] @> k.conkey::int2[] and u.conkey::int2[] <@ k.conkey::int2[]) as one_to_one
         from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
         join pg_class r on r.oid = k.confrelid join pg_namespace rn on rn.oid = r.relnamespace
        where k.contype = 'f' and n.nspname = 'public' and rn.nspname = 'public'
        order by c.relname, k.conname`,
    )
  ).rows;
  const functions = (
    await db.query<{ name: string; arg_names: string[] | null; arg_types: string[]; arg_modes: string[] | null; defaults: number; default_exprs: string | null; result: string; retset: boolean }>(
      `select p.proname as name, p.proargnames::text[] as arg_names,
              array(select t.typname::text from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) with ordinality x (oid, ord) join pg_type t on t.oid = x.oid order by x.ord)::text[] as arg_types,
              p.proargmodes::text[] as arg_modes, p.pronargdefaults as defaults, pg_get_expr(p.proargdefaults, 0) as default_exprs, rt.typname as result, p.proretset as retset
         from pg_proc p join pg_namespace n on n.oid = p.pronamespace join pg_type rt on rt.oid = p.prorettype
        where n.nspname = 'public' and p.prokind = 'f'
        order by p.proname, pg_get_function_identity_arguments(p.oid)`,
    )
  ).rows;

  const byRelation = new Map<string, { kind: string; columns: typeof relations }>();
  for (const row of relations) {
    const entry = byRelation.get(row.name) ?? { kind: row.kind, columns: [] };
    if (row.column) entry.columns.push(row);
    byRelation.set(row.name, entry);
  }
  const quote = (name: string) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name));
  const indent = (depth: number) => '  '.repeat(depth);
  const emptyRecord = '{\n        [_ in never]: never\n      }';

  const relationshipsOf = (name: string, depth: number) => {
    const own = relationships.filter((relationship) => relationship.table === name);
    if (own.length === 0) return '[]';
    const items = own.map(
      (r) =>
        `${indent(depth + 1)}{\n${indent(depth + 2)}foreignKeyName: ${JSON.stringify(r.name)}\n${indent(depth + 2)}columns: [${r.columns.map((c) => JSON.stringify(c)).join(', ')}]\n` +
        `${indent(depth + 2)}isOneToOne: ${r.one_to_one}\n${indent(depth + 2)}referencedRelation: ${JSON.stringify(r.referenced)}\n` +
        `${indent(depth + 2)}referencedColumns: [${r.referenced_columns.map((c) => JSON.stringify(c)).join(', ')}]\n${indent(depth + 1)}},`,
    );
    return `[\n${items.join('\n')}\n${indent(depth)}]`;
  };

  const tableBlock = (name: string, entry: { kind: string; columns: typeof relations }, isView: boolean) => {
    const d = 3;
    const field = (column: (typeof relations)[number], optional: boolean, written: boolean, never = false) => {
      const type = written && column.type === 'int8' ? 'number | string' : tsType(column.type!);
      return `${indent(d + 2)}${quote(column.column!)}${optional ? '?' : ''}: ${never ? 'never' : `${type}${column.nullable || isView ? ' | null' : ''}`}`;
    };
    const row = entry.columns.map((column) => field(column, false, false)).join('\n');
    const insert = entry.columns.map((column) => field(column, column.nullable || column.has_default || column.generated || isView, true, column.generated)).join('\n');
    const update = entry.columns.map((column) => field(column, true, true, column.generated)).join('\n');
    const parts = [`${indent(d + 1)}Row: {\n${row}\n${indent(d + 1)}}`];
    if (!isView) {
      parts.push(`${indent(d + 1)}Insert: {\n${insert}\n${indent(d + 1)}}`, `${indent(d + 1)}Update: {\n${update}\n${indent(d + 1)}}`);
    }
    parts.push(`${indent(d + 1)}Relationships: ${relationshipsOf(name, d + 1)}`);
    return `${indent(d)}${quote(name)}: {\n${parts.join('\n')}\n${indent(d)}}`;
  };

  const tables = [...byRelation].filter(([, entry]) => entry.kind === 'r' || entry.kind === 'p');
  const views = [...byRelation].filter(([, entry]) => entry.kind === 'v' || entry.kind === 'm');

  const functionBlock = (fn: (typeof functions)[number]) => {
    const d = 3;
    const inputs = fn.arg_types
      .map((type, index) => ({ type, name: fn.arg_names?.[index] ?? '', mode: fn.arg_modes?.[index] ?? 'i' }))
      .filter((arg) => arg.mode === 'i' || arg.mode === 'b' || arg.mode === 'v');
    const outputs = fn.arg_types
      .map((type, index) => ({ type, name: fn.arg_names?.[index] ?? '', mode: fn.arg_modes?.[index] ?? 'i' }))
      .filter((arg) => arg.mode === 't' || arg.mode === 'o');
    const firstDefault = inputs.length - fn.defaults;
    const defaults = splitTopLevel(fn.default_exprs ?? '');
    const argType = (arg: (typeof inputs)[number], index: number) => {
      // A 64-bit integer also goes as a string (PostgREST casts it), for values a JavaScript number cannot hold.
      let type = arg.type === 'int8' ? 'number | string' : tsType(arg.type);
      // An argument whose default is NULL may be sent as null: the same as leaving it out.
      if (index >= firstDefault && /^NULL(::|$)/.test(defaults[index - firstDefault] ?? '')) type += ' | null';
      return type;
    };
    const args =
      inputs.length === 0
        ? 'never'
        : `{\n${inputs.map((arg, index) => `${indent(d + 2)}${quote(arg.name)}${index >= firstDefault ? '?' : ''}: ${argType(arg, index)}`).join('\n')}\n${indent(d + 1)}}`;
    let returns: string;
    if (outputs.length > 0) {
      returns = `{\n${outputs.map((arg) => `${indent(d + 2)}${quote(arg.name)}: ${tsType(arg.type)}`).join('\n')}\n${indent(d + 1)}}${fn.retset ? '[]' : ''}`;
    } else {
      returns = `${tsType(fn.result)}${fn.retset ? '[]' : ''}`;
    }
    return `${indent(d)}${quote(fn.name)}: {\n${indent(d + 1)}Args: ${args}\n${indent(d + 1)}Returns: ${returns}\n${indent(d)}}`;
  };

  const section = (items: string[]) => (items.length === 0 ? emptyRecord : `{\n${items.join('\n')}\n    }`);
  const enumBlock = [...enums].map(([name, labels]) => `      ${quote(name)}: ${labels.map((label) => JSON.stringify(label)).join(' | ')}`);

  return `// Written by \`npm run db:types\` from the migrated database (local/db/database-types.ts); do not edit.
// tests/sql/database-types.test.ts fails when it is not what supabase/migrations makes.

export type Json = string | number | boolean | null | { [key: string]: Json | undefined } | Json[]

export type Database = {
  __InternalSupabase: {
    PostgrestVersion: "12"
  }
  public: {
    Tables: ${section(tables.map(([name, entry]) => tableBlock(name, entry, false)))}
    Views: ${section(views.map(([name, entry]) => tableBlock(name, entry, true)))}
    Functions: ${section(functions.map(functionBlock))}
    Enums: ${enumBlock.length === 0 ? emptyRecord : `{\n${enumBlock.join('\n')}\n    }`}
    CompositeTypes: ${emptyRecord}
  }
}

type PublicSchema = Database['public']

export type Tables<T extends keyof PublicSchema['Tables']> = PublicSchema['Tables'][T]['Row']
export type TablesInsert<T extends keyof PublicSchema['Tables']> = PublicSchema['Tables'][T]['Insert']
export type TablesUpdate<T extends keyof PublicSchema['Tables']> = PublicSchema['Tables'][T]['Update']
export type Views<T extends keyof PublicSchema['Views']> = PublicSchema['Views'][T]['Row']
export type FunctionArgs<T extends keyof PublicSchema['Functions']> = PublicSchema['Functions'][T]['Args']
export type FunctionReturns<T extends keyof PublicSchema['Functions']> = PublicSchema['Functions'][T]['Returns']
`;
}

/** The comma-separated expressions of pg_get_expr(proargdefaults), split where no bracket or quote is open. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === "'") quoted = !quoted;
    else if (!quoted && (ch === '(' || ch === '[')) depth++;
    else if (!quoted && (ch === ')' || ch === ']')) depth--;
    else if (!quoted && depth === 0 && ch === ',') {
      parts.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  if (text.trim() !== '') parts.push(text.slice(start).trim());
  return parts;
}

async function enumsOf(db: Queryable): Promise<Map<string, string[]>> {
  const { rows } = await db.query<{ name: string; labels: string[] }>(
    `select t.typname as name, array(select e.enumlabel::text from pg_enum e where e.enumtypid = t.oid order by e.enumsortorder)::text[] as labels
       from pg_type t join pg_namespace n on n.oid = t.typnamespace where n.nspname = 'public' and t.typtype = 'e' order by t.typname`,
  );
  return new Map(rows.map((row) => [row.name, row.labels]));
}
