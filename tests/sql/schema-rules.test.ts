import { expect, it } from 'vitest';
import { describeOnEngines } from '../support/engines.ts';
import { anon, expectPgError, queryAs, userActor } from '../support/acting.ts';
import type { Actor } from '../support/acting.ts';
import { grantAdmin, newUser } from '../support/factories.ts';

/** Functions in public that anonymous visitors may call and that answer them: each decides per caller what it returns. */
const answersAnon = [
  'get_ad(p_id uuid)',
  'has_valid_access()',
  'is_admin()',
  'list_ad_locales()',
  'list_ads(p_query jsonb)',
  'similar_ads(p_id uuid)',
];
/** Functions in public that anonymous visitors may call only to be refused with a named error (42501 and a detail). */
const refusesAnonByName = [
  'delete_board(p_id uuid, p_move_children_up boolean)',
  'get_ad_neighbours(p_id uuid)',
  'get_ad_original_download(p_id uuid)',
  'get_or_create_favorites_id()',
  'list_collection_ads(p_collection_id uuid, p_cursor text)',
  'save_ad_boards(p_ad_id uuid, p_add uuid[], p_remove uuid[])',
];

/** A call of a function with a null for every argument. */
const nullCall = (schema: string) => `'${schema}.' || quote_ident(p.proname) || '(' ||
  coalesce((select string_agg('null::' || format_type(t.type, null), ', ' order by t.n)
              from unnest(p.proargtypes::oid[]) with ordinality as t (type, n)), '') || ')'`;

/** Functions that only admins may use: anon cannot execute them, a signed-in non-admin is refused by the function. */
const isAdminFunction = (name: string) => name.startsWith('admin_') || name === 'get_ads_admin' || name === 'tag_ads_of_day';

/** Calls in policies that must be evaluated once per statement, not once per row. */
const perStatementCall = /\b(auth\.uid|auth\.jwt|auth\.role|(?:public\.)?is_admin|(?:public\.)?has_valid_access)\(\)/g;

describeOnEngines('schema rules', (ctx) => {
  it('enables row-level security on every table in public', async () => {
    const { rows } = await ctx.db.query<{ relname: string }>(
      `select c.relname from pg_class c
        where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') and not c.relrowsecurity
        order by 1`,
    );
    expect(rows.map((row) => row.relname)).toEqual([]);
  });

  it("sets search_path to '' on every security-definer function in public and private", async () => {
    const { rows } = await ctx.db.query<{ fn: string; config: string[] | null }>(
      `select p.pronamespace::regnamespace || '.' || p.proname as fn, p.proconfig as config
         from pg_proc p
        where p.prosecdef and p.pronamespace in ('public'::regnamespace, 'private'::regnamespace)
        order by 1`,
    );
    expect(rows.length).toBeGreaterThan(0);
    const unsafe = rows.filter((row) => !(row.config ?? []).includes('search_path=""')).map((row) => row.fn);
    expect(unsafe).toEqual([]);
  });

  it('calls auth.uid() and is_admin() in policies only inside a scalar subquery', async () => {
    const { rows } = await ctx.db.query<{ policy: string; expression: string }>(
      `select schemaname || '.' || tablename || ': ' || policyname as policy, expression
         from pg_policies, lateral (values (qual), (with_check)) as e (expression)
        where expression is not null and (schemaname = 'public' or (schemaname = 'storage' and policyname like 'obyect: %'))`,
    );
    expect(rows.length).toBeGreaterThan(0);
    const bare: string[] = [];
    for (const { policy, expression } of rows) {
      for (const match of expression.matchAll(perStatementCall)) {
        const before = expression.slice(0, match.index);
        const after = expression.slice(match.index + match[0].length);
        // PostgreSQL prints `(select auth.uid())` as `( SELECT auth.uid() AS uid)`.
        if (!before.endsWith('( SELECT ') || !/^ AS \w+\)/.test(after)) bare.push(`${policy}: ${expression}`);
      }
    }
    expect(bare).toEqual([]);
  });

  // A type's rename or deletion rewrites the card of every ad of the type, which costs more than the scan an index
  // would save; public.ads keeps its 20 indexes for the listing (docs/decisions/0071).
  const unindexedForeignKeys = ['ads.type_id'];

  it('indexes the leading column of every foreign key in public', async () => {
    const { rows } = await ctx.db.query<{ fk: string }>(
      `select c.conrelid::regclass || '.' || a.attname as fk
         from pg_constraint c
         join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
        where c.contype = 'f' and c.connamespace = 'public'::regnamespace
          and not exists (select 1 from pg_index i where i.indrelid = c.conrelid and i.indkey[0] = c.conkey[1])
        order by 1`,
    );
    expect(rows.map((row) => row.fk)).toEqual(unindexedForeignKeys);
  });

  it('indexes every column a policy filters on', async () => {
    const { rows } = await ctx.db.query<{ column: string; indexed: boolean }>(
      `select distinct r.oid::regclass || '.' || a.attname as column,
              exists (select 1 from pg_index i where i.indrelid = r.oid and i.indkey[0] = a.attnum) as indexed
         from pg_depend d
         join pg_policy p on p.oid = d.objid
         join pg_class t on t.oid = p.polrelid
         join pg_class r on r.oid = d.refobjid
         join pg_attribute a on a.attrelid = r.oid and a.attnum = d.refobjsubid
        where d.classid = 'pg_policy'::regclass and d.refclassid = 'pg_class'::regclass and d.refobjsubid > 0
          and (t.relnamespace = 'public'::regnamespace or (t.oid = 'storage.objects'::regclass and p.polname like 'obyect: %'))
        order by 1`,
    );
    expect(rows.map((row) => row.column)).toContain('user_collections.user_id');
    expect(rows.filter((row) => !row.indexed).map((row) => row.column)).toEqual([]);
  });

  it('makes every view in public security_invoker', async () => {
    const { rows } = await ctx.db.query<{ relname: string; invoker: boolean }>(
      `select c.relname, coalesce('security_invoker=true' = any (c.reloptions) or 'security_invoker=on' = any (c.reloptions), false) as invoker
         from pg_class c
        where c.relnamespace = 'public'::regnamespace and c.relkind in ('v', 'm')
        order by 1`,
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.filter((row) => !row.invoker).map((row) => row.relname)).toEqual([]);
  });

  it('lets anonymous visitors execute only the listed functions in public', async () => {
    const { rows } = await ctx.db.query<{ fn: string }>(
      `select p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' as fn
         from pg_proc p
        where p.pronamespace = 'public'::regnamespace and has_function_privilege('anon', p.oid, 'EXECUTE')
        order by 1`,
    );
    expect(rows.map((row) => row.fn)).toEqual([...answersAnon, ...refusesAnonByName].sort());
  });

  it('refuses an anonymous visitor by name in the functions that need a signed-in user', async () => {
    const { rows } = await ctx.db.query<{ fn: string; call: string; returns_set: boolean }>(
      `select p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' as fn, p.proretset as returns_set,
              ${nullCall('public')} as call
         from pg_proc p
        where p.pronamespace = 'public'::regnamespace
        order by 1`,
    );
    const refusing = rows.filter((row) => refusesAnonByName.includes(row.fn));
    expect(refusing).toHaveLength(refusesAnonByName.length);
    for (const fn of refusing) {
      const error = (await expectPgError(queryAs(ctx.db, anon, fn.returns_set ? `select * from ${fn.call}` : `select ${fn.call}`), {
        code: '42501',
      })) as Error & { detail?: string };
      expect(error.detail, fn.fn).toMatch(/^[a-z_]+$/);
    }
  });

  it('refuses every admin function to anonymous visitors and signed-in non-admins, and runs it for admins', async () => {
    const { rows } = await ctx.db.query<{ name: string; call: string; returns_set: boolean; authenticated_may_execute: boolean }>(
      `select p.proname as name, p.proretset as returns_set,
              ${nullCall('public')} as call,
              has_function_privilege('authenticated', p.oid, 'EXECUTE') as authenticated_may_execute
         from pg_proc p
        where p.pronamespace = 'public'::regnamespace
        order by 1`,
    );
    const adminFunctions = rows.filter((row) => isAdminFunction(row.name));
    expect(adminFunctions.map((row) => row.name)).toEqual(
      expect.arrayContaining([
        'admin_ad_images', 'admin_delete_ads', 'admin_set_black_friday_access', 'admin_update_ads', 'get_ads_admin', 'tag_ads_of_day',
      ]),
    );
    const free = await newUser(ctx.db);
    const admin = await newUser(ctx.db);
    await grantAdmin(ctx.db, admin);
    const callAs = (actor: Actor, fn: (typeof rows)[number]) =>
      queryAs(ctx.db, actor, fn.returns_set ? `select * from ${fn.call}` : `select ${fn.call}`);
    for (const fn of adminFunctions) {
      await expectPgError(callAs(anon, fn), { code: '42501' });
      // A signed-in user may execute it; the function itself refuses.
      expect(fn.authenticated_may_execute, fn.name).toBe(true);
      await expectPgError(callAs(userActor(free), fn), { code: '42501', detail: 'admin_required' });
      const asAdmin = await callAs(userActor(admin), fn).then(
        () => null,
        (error: { code?: string }) => error.code,
      );
      expect(asAdmin, fn.name).not.toBe('42501');
    }
  });

  it('gives anonymous visitors and signed-in users nothing in schema private', async () => {
    const { rows: usage } = await ctx.db.query<{ role: string; usage: boolean }>(
      `select r as role, has_schema_privilege(r, 'private', 'USAGE') or has_schema_privilege(r, 'private', 'CREATE') as usage
         from unnest(array['anon', 'authenticated']) r`,
    );
    expect(usage).toEqual([
      { role: 'anon', usage: false },
      { role: 'authenticated', usage: false },
    ]);
    const { rows: grants } = await ctx.db.query<{ object: string }>(
      `select c.relname || ' to ' || g.grantee::regrole as object
         from pg_class c, aclexplode(c.relacl) g
        where c.relnamespace = 'private'::regnamespace and g.grantee in ('anon'::regrole, 'authenticated'::regrole)
       union all
       select p.proname || ' to ' || g.grantee::regrole
         from pg_proc p, aclexplode(p.proacl) g
        where p.pronamespace = 'private'::regnamespace and g.grantee in ('anon'::regrole, 'authenticated'::regrole)`,
    );
    // The exception: a pure function that an index of ads calls as the role writing the row (the admin).
    expect(grants.map((row) => row.object).sort()).toEqual(['hash_quarter_keys to authenticated']);
    const { rows: objects } = await ctx.db.query<{ statement: string }>(
      `select 'select * from private.' || quote_ident(c.relname) || ' limit 1' as statement
         from pg_class c where c.relnamespace = 'private'::regnamespace and c.relkind in ('r', 'v', 'm')
       union all
       select 'select ' || ${nullCall('private')}
         from pg_proc p where p.pronamespace = 'private'::regnamespace and p.prorettype <> 'trigger'::regtype`,
    );
    expect(objects.map((row) => row.statement)).toContain('select * from private.settings limit 1');
    const user = await newUser(ctx.db);
    for (const actor of [anon, userActor(user)]) {
      for (const { statement } of objects) {
        await expectPgError(queryAs(ctx.db, actor, statement), { code: '42501', message: /permission denied for schema private/ });
      }
    }
  });
});
