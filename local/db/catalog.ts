import type { Queryable } from './database.ts';

/**
 * What a database is made of, as one entry per object: its kind and name as the key, its definition as PostgreSQL
 * prints it as the value. Two databases built by different routes (supabase/migrations, supabase/schemas) are the
 * same when their catalogs are equal; `catalogDifferences` says where they are not. Covers every schema but
 * PostgreSQL's own and the migration records, so Supabase's schemas (auth, storage) count too: a policy on
 * storage.objects or a trigger on auth.users is part of the product.
 */
export type Catalog = Map<string, string>;

const OWN_SCHEMAS = `n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast', 'supabase_migrations')
  and n.nspname !~ '^pg_(temp|toast_temp)_'`;

/** Rows the schema declares (not the product's content): their key and their value, both as text. */
const DECLARED_ROWS: Array<{ name: string; sql: string }> = [
  { name: 'bucket', sql: `select id as key, row(name, public, file_size_limit, allowed_mime_types)::text as value from storage.buckets` },
  { name: 'system tag', sql: `select system_key as key, name as value from public.tags where system_key is not null` },
  { name: 'colour', sql: `select name as key, row(hex, l, a, b)::text as value from private.colour_palette` },
  { name: 'anonymous answer version', sql: `select function_name as key, '' as value from private.anonymous_answer_versions` },
  // Secrets differ between databases by design: only that they exist is declared.
  { name: 'setting', sql: `select key, '' as value from private.settings` },
  { name: 'ad count row', sql: `select 'total' as key, count(*)::text as value from private.ad_counts` },
  { name: 'free sample count row', sql: `select 'counts' as key, count(*)::text as value from private.free_sample_counts` },
];

const QUERIES: Array<{ kind: string; sql: string }> = [
  { kind: 'extension', sql: `select e.extname as key, n.nspname as value from pg_extension e join pg_namespace n on n.oid = e.extnamespace` },
  {
    kind: 'schema',
    sql: `select n.nspname as key, pg_get_userbyid(n.nspowner) || ' ' || coalesce(array_to_string(array(select x::text from unnest(n.nspacl) x order by 1), ','), '')
            as value from pg_namespace n where ${OWN_SCHEMAS}`,
  },
  {
    kind: 'relation',
    sql: `select n.nspname || '.' || c.relname as key,
                 concat_ws(' ', c.relkind::text, pg_get_userbyid(c.relowner), 'rls=' || c.relrowsecurity, 'force=' || c.relforcerowsecurity,
                   'options=' || coalesce(array_to_string(c.reloptions, ','), ''),
                   'acl=' || coalesce(array_to_string(array(select x::text from unnest(c.relacl) x order by 1), ','), '')) as value
            from pg_class c join pg_namespace n on n.oid = c.relnamespace
           where ${OWN_SCHEMAS} and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')`,
  },
  {
    kind: 'column',
    sql: `select n.nspname || '.' || c.relname || '.' || a.attname as key,
                 concat_ws(' ', '#' || row_number() over (partition by c.oid order by a.attnum), format_type(a.atttypid, a.atttypmod),
                   case when a.attnotnull then 'not null' end, 'default=' || pg_get_expr(d.adbin, d.adrelid),
                   'identity=' || nullif(a.attidentity::text, ''), 'generated=' || nullif(a.attgenerated::text, ''),
                   'collation=' || nullif(a.attcollation, 0)::regcollation::text,
                   'statistics=' || nullif(a.attstattarget, -1),
                   'acl=' || array_to_string(array(select x::text from unnest(a.attacl) x order by 1), ',')) as value
            from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
            left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
           where ${OWN_SCHEMAS} and c.relkind in ('r', 'p', 'v', 'm', 'f', 'c') and a.attnum > 0 and not a.attisdropped`,
  },
  {
    kind: 'constraint',
    sql: `select n.nspname || '.' || coalesce(c.relname, t.typname) || ' ' || k.conname as key, pg_get_constraintdef(k.oid) as value
            from pg_constraint k join pg_namespace n on n.oid = k.connamespace
            left join pg_class c on c.oid = k.conrelid left join pg_type t on t.oid = k.contypid
           where ${OWN_SCHEMAS}`,
  },
  {
    kind: 'index',
    sql: `select n.nspname || '.' || i.relname as key, pg_get_indexdef(i.oid) as value
            from pg_index x join pg_class i on i.oid = x.indexrelid join pg_namespace n on n.oid = i.relnamespace
           where ${OWN_SCHEMAS}`,
  },
  {
    kind: 'policy',
    sql: `select n.nspname || '.' || c.relname || ' ' || p.polname as key,
                 concat_ws(' ', p.polcmd::text, case when p.polpermissive then 'permissive' else 'restrictive' end,
                   'to ' || array_to_string(array(select case when r = 0 then 'public' else pg_get_userbyid(r) end from unnest(p.polroles) r order by 1), ','),
                   'using ' || pg_get_expr(p.polqual, p.polrelid), 'check ' || pg_get_expr(p.polwithcheck, p.polrelid)) as value
            from pg_policy p join pg_class c on c.oid = p.polrelid join pg_namespace n on n.oid = c.relnamespace
           where ${OWN_SCHEMAS}`,
  },
  {
    kind: 'trigger',
    sql: `select n.nspname || '.' || c.relname || ' ' || t.tgname as key, pg_get_triggerdef(t.oid) || ' enabled=' || t.tgenabled::text as value
            from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
           where ${OWN_SCHEMAS} and not t.tgisinternal`,
  },
  {
    kind: 'view',
    sql: `select n.nspname || '.' || c.relname as key, pg_get_viewdef(c.oid) as value
            from pg_class c join pg_namespace n on n.oid = c.relnamespace where ${OWN_SCHEMAS} and c.relkind in ('v', 'm')`,
  },
  {
    kind: 'function',
    sql: `select n.nspname || '.' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' as key,
                 pg_get_functiondef(p.oid) || E'\\nowner ' || pg_get_userbyid(p.proowner)
                   || E'\\nacl ' || coalesce(array_to_string(array(select x::text from unnest(p.proacl) x order by 1), ','), '') as value
            from pg_proc p join pg_namespace n on n.oid = p.pronamespace
           where ${OWN_SCHEMAS} and p.prokind in ('f', 'p')
             and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')`,
  },
  {
    kind: 'type',
    sql: `select n.nspname || '.' || t.typname as key,
                 concat_ws(' ', t.typtype::text, format_type(t.typbasetype, t.typtypmod),
                   array_to_string(array(select e.enumlabel from pg_enum e where e.enumtypid = t.oid order by e.enumsortorder), ',')) as value
            from pg_type t join pg_namespace n on n.oid = t.typnamespace
           where ${OWN_SCHEMAS} and t.typtype in ('e', 'd', 'c')
             and not exists (select 1 from pg_class c where c.oid = t.typrelid and c.relkind <> 'c')
             and not exists (select 1 from pg_depend d where d.objid = t.oid and d.deptype = 'e')`,
  },
  {
    kind: 'sequence',
    sql: `select n.nspname || '.' || c.relname as key,
                 concat_ws(' ', format_type(s.seqtypid, null), s.seqstart, s.seqincrement, s.seqmin, s.seqmax, s.seqcache, s.seqcycle) as value
            from pg_sequence s join pg_class c on c.oid = s.seqrelid join pg_namespace n on n.oid = c.relnamespace where ${OWN_SCHEMAS}`,
  },
  {
    kind: 'publication',
    sql: `select p.pubname || ' ' || n.nspname || '.' || c.relname as key, '' as value
            from pg_publication p join pg_publication_rel r on r.prpubid = p.oid
            join pg_class c on c.oid = r.prrelid join pg_namespace n on n.oid = c.relnamespace`,
  },
  {
    kind: 'default privileges',
    sql: `select pg_get_userbyid(d.defaclrole) || ' ' || coalesce(n.nspname, '') || ' ' || d.defaclobjtype::text as key,
                 array_to_string(array(select x::text from unnest(d.defaclacl) x order by 1), ',') as value
            from pg_default_acl d left join pg_namespace n on n.oid = d.defaclnamespace`,
  },
  {
    kind: 'comment',
    sql: `select d.classoid::regclass::text || ' ' || coalesce(
                   (select n.nspname || '.' || c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace where d.classoid = 'pg_class'::regclass and c.oid = d.objoid),
                   (select n.nspname || '.' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')'
                      from pg_proc p join pg_namespace n on n.oid = p.pronamespace where d.classoid = 'pg_proc'::regclass and p.oid = d.objoid),
                   (select n.nspname from pg_namespace n where d.classoid = 'pg_namespace'::regclass and n.oid = d.objoid),
                   d.objoid::text) || ' ' || d.objsubid as key, d.description as value
            from pg_description d
           where d.classoid in ('pg_class'::regclass, 'pg_proc'::regclass, 'pg_namespace'::regclass)
             and not exists (select 1 from pg_depend x where x.objid = d.objoid and x.deptype = 'e')
             and coalesce((select n.nspname from pg_class c join pg_namespace n on n.oid = c.relnamespace where d.classoid = 'pg_class'::regclass and c.oid = d.objoid),
                          (select n.nspname from pg_proc p join pg_namespace n on n.oid = p.pronamespace where d.classoid = 'pg_proc'::regclass and p.oid = d.objoid),
                          (select n.nspname from pg_namespace n where d.classoid = 'pg_namespace'::regclass and n.oid = d.objoid))
                 not in ('pg_catalog', 'information_schema')`,
  },
];

/** The catalog of the database `db` is connected to. */
export async function readCatalog(db: Queryable): Promise<Catalog> {
  const catalog: Catalog = new Map();
  const add = (key: string, value: string) => {
    if (catalog.has(key)) throw new Error(`Two catalog entries share the key ${key}`);
    catalog.set(key, value);
  };
  for (const { kind, sql } of QUERIES) {
    for (const row of (await db.query<{ key: string; value: string | null }>(sql)).rows) add(`${kind} ${row.key}`, row.value ?? '');
  }
  const { rows: cron } = await db.query<{ present: boolean }>(`select to_regclass('cron.job') is not null as present`);
  const declared = cron[0]?.present
    ? [...DECLARED_ROWS, { name: 'cron job', sql: `select jobname as key, schedule || ' ' || command as value from cron.job` }]
    : DECLARED_ROWS;
  for (const { name, sql } of declared) {
    for (const row of (await db.query<{ key: string; value: string | null }>(sql)).rows) add(`row ${name} ${row.key}`, row.value ?? '');
  }
  return catalog;
}

export interface CatalogDifference {
  key: string;
  /** The definition in the first catalog; undefined when only the second has it. */
  left?: string;
  right?: string;
}

/** Where two catalogs differ, sorted by key; empty when they are equal. */
export function catalogDifferences(left: Catalog, right: Catalog): CatalogDifference[] {
  const keys = [...new Set([...left.keys(), ...right.keys()])].sort();
  return keys.filter((key) => left.get(key) !== right.get(key)).map((key) => ({ key, left: left.get(key), right: right.get(key) }));
}
