import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeOnEngines } from '../support/engines.ts';
import { sqlLiteralsOf, unguardedWritesOfFunction, unguardedWritesOfSql, type UnguardedWrite } from '../support/unguarded-writes.ts';

/**
 * Hosted Supabase loads pg-safeupdate for PostgREST's connections: an UPDATE or DELETE without a WHERE clause is
 * refused there ("UPDATE requires a WHERE clause"), inside a trigger too, so an admin's insert that fires a counter
 * trigger would fail in production and pass here. Every such statement is found by parsing, and none may exist.
 */
const root = path.resolve(import.meta.dirname, '../..');

describe('the unguarded-write finder', () => {
  it('finds an UPDATE or DELETE without WHERE, in a CTE too, and passes those with one', async () => {
    expect(await unguardedWritesOfSql('t', 'update private.ad_counts set total = total + 1')).toEqual([{ place: 't', statement: 'update private.ad_counts' }]);
    expect(await unguardedWritesOfSql('t', 'with d as (delete from public.ads returning id) select count(*) from d')).toEqual([
      { place: 't', statement: 'delete from public.ads' },
    ]);
    expect(await unguardedWritesOfSql('t', "update private.ad_counts set total = 0 where singleton -- where in a comment")).toEqual([]);
    expect(await unguardedWritesOfSql('t', "delete from public.ads where id in (select id from public.ads)")).toEqual([]);
  });

  it('reads the statements of a PL/pgSQL body, in branches and loops', async () => {
    const definition = `create function f() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' then update private.free_sample_counts set members = members - 1; end if;
        for i in 1..2 loop delete from private.tag_ad_counts where ads = 0; end loop;
        return null;
      end $$`;
    expect(await unguardedWritesOfFunction('private.f', 'plpgsql', definition, '')).toEqual([{ place: 'private.f', statement: 'update private.free_sample_counts' }]);
  });
});

describeOnEngines('UPDATE and DELETE in the database', (ctx) => {
  it('name the rows they change in every function of the product, so pg-safeupdate lets them run', async () => {
    const { rows } = await ctx.db.query<{ name: string; language: string; definition: string; body: string }>(
      `select n.nspname || '.' || p.proname as name, l.lanname as language, pg_get_functiondef(p.oid) as definition, p.prosrc as body
         from pg_proc p join pg_namespace n on n.oid = p.pronamespace join pg_language l on l.oid = p.prolang
        where n.nspname in ('public', 'private') and p.prokind = 'f' order by 1`,
    );
    expect(rows.length).toBeGreaterThan(100);
    const found: UnguardedWrite[] = [];
    for (const row of rows) found.push(...(await unguardedWritesOfFunction(row.name, row.language, row.definition, row.body)));
    expect(found).toEqual([]);
  });
});

describe('UPDATE and DELETE the stack sends', () => {
  it('name the rows they change, in every SQL literal of local/ and supabase/functions', async () => {
    const files: string[] = [];
    for (const dir of ['local', 'supabase/functions']) {
      for (const entry of await readdir(path.join(root, dir), { recursive: true })) {
        if (entry.endsWith('.ts') && !entry.endsWith('.test.ts')) files.push(path.join(dir, entry));
      }
    }
    const found: UnguardedWrite[] = [];
    const fragments: string[] = [];
    let statements = 0;
    for (const file of files) {
      const literals = await sqlLiteralsOf(file, await readFile(path.join(root, file), 'utf8'));
      fragments.push(...literals.fragments);
      statements += literals.statements.length;
      for (const { place, sql } of literals.statements) found.push(...(await unguardedWritesOfSql(place, sql)));
    }
    expect(statements).toBeGreaterThan(30);
    // local/rest builds PostgREST's writes, whose WHERE comes from the request's filters: hosted runs PostgREST itself
    // there, with pg-safeupdate refusing a write without one.
    const ownWrites = (place: string) => !place.startsWith('local/rest/');
    expect(found.filter(({ place }) => ownWrites(place))).toEqual([]);
    // Parts of statements put together elsewhere, which could not be read whole.
    expect(fragments.filter(ownWrites)).toEqual([]);
  });
});
