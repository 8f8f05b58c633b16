import { expect, it } from 'vitest';
import { describeOnEngines } from '../support/engines.ts';

/**
 * The listing stays one plain query a newcomer reads in one sitting (docs/decisions/0067): everything list_ads calls,
 * followed through every function it names, is at most 700 lines with no function over 250, and none of it changes a
 * planner setting or keeps a statement; and public.ads keeps at most 20 indexes, each written on every insert.
 */

interface Definition { name: string; definition: string }

describeOnEngines('the listing stays plain', (ctx) => {
  it('reaches at most 700 lines in functions of at most 250, with no planner setting changed', async () => {
    const { rows } = await ctx.db.query<Definition>(
      `select n.nspname || '.' || p.proname as name, pg_get_functiondef(p.oid) as definition
         from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname in ('public', 'private', 'auth') and p.prokind = 'f'`,
    );
    const definitions = new Map<string, string[]>();
    for (const row of rows) definitions.set(row.name, [...(definitions.get(row.name) ?? []), row.definition]);
    const reached: string[] = [];
    const visit = (name: string) => {
      if (reached.includes(name)) return;
      reached.push(name);
      for (const definition of definitions.get(name) ?? []) {
        for (const match of definition.matchAll(/\b(public|private|auth)\.([a-z0-9_]+)\s*\(/g)) {
          const called = `${match[1]}.${match[2]}`;
          if (definitions.has(called)) visit(called);
        }
      }
    };
    visit('public.list_ads');
    const lines = (name: string) => definitions.get(name)!.reduce((sum, definition) => sum + definition.trimEnd().split('\n').length, 0);
    const total = reached.reduce((sum, name) => sum + lines(name), 0);
    console.log(`list_ads reaches ${reached.length} functions, ${total} lines (${ctx.engine})`);

    expect(reached).toContain('private.read_ads_query');
    expect(total).toBeLessThanOrEqual(700);
    expect(reached.filter((name) => lines(name) > 250)).toEqual([]);
    const planning = reached.filter((name) =>
      definitions.get(name)!.some((definition) => /set_config\s*\(\s*'(enable_|max_parallel|plan_cache)|\bprepare\b/i.test(definition)));
    expect(planning).toEqual([]);
  });

  it('keeps at most 20 indexes on public.ads', async () => {
    const { rows } = await ctx.db.query<{ name: string }>(
      `select c.relname as name from pg_index i join pg_class c on c.oid = i.indexrelid
        where i.indrelid = 'public.ads'::regclass order by 1`,
    );
    console.log(`public.ads has ${rows.length} indexes (${ctx.engine}): ${rows.map((row) => row.name).join(', ')}`);
    expect(rows.map((row) => row.name)).toContain('ads_newest');
    expect(rows.length).toBeLessThanOrEqual(20);
  });

  it("gives the search's words a rum index where the extension exists, else the GIN index's first column", async () => {
    const rum = (await ctx.db.query<{ rum: boolean }>(`select exists (select 1 from pg_extension where extname = 'rum') as rum`)).rows[0]!.rum;
    // PGlite has no rum; the PostgreSQL of CI has it (scripts/check-postgres-extensions.mjs installs it).
    if (ctx.engine === 'pglite') expect(rum).toBe(false);
    if (ctx.engine === 'postgres' && process.env.CI) expect(rum).toBe(true);
    const { rows } = await ctx.db.query<{ definition: string }>(
      `select pg_get_indexdef(c.oid) as definition from pg_index i join pg_class c on c.oid = i.indexrelid
        where i.indrelid = 'public.ads'::regclass and c.relname like 'ads_search%' order by c.relname`,
    );
    expect(rows.map((row) => row.definition.replace(/^CREATE INDEX (\w+) ON public\.ads USING /, '$1 '))).toEqual(rum
      ? ['ads_search gin (search_text extensions.gin_trgm_ops)', 'ads_search_words rum (search_vector)']
      : ['ads_search gin (search_vector, search_text extensions.gin_trgm_ops)']);
  });
});
