import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../local/db/database.ts';
import { createRestApi, type RestApi } from '../../local/rest/rest-api.ts';
import { availableEngines, describeOnEngines, openTestDatabase } from '../support/engines.ts';
import { newAd } from '../support/factories.ts';
import { clientFor, newLocalConfig, TEST_ORIGIN } from '../support/local-config.ts';

/** Tables, views and functions that exist only in this test's database: the API must find them in the catalog. */
const TEST_SCHEMA = `
  create table public.rest_test_people (
    id int primary key, name text not null, data jsonb, tags text[] not null default '{}', born date, score numeric(5, 2));
  create table public.rest_test_pairs (
    id int primary key,
    first_person int references public.rest_test_people,
    second_person int references public.rest_test_people,
    note text);
  create view public.rest_test_pair_view as select id as pair_id, first_person, note from public.rest_test_pairs;
  create view public.rest_test_pair_view_chained as select * from public.rest_test_pair_view;
  create function public.rest_test_echo(a int) returns text language sql as $$ select 'a=' || a $$;
  create function public.rest_test_echo(a int, b text) returns text language sql as $$ select 'a=' || a || ',b=' || b $$;
  create function public.rest_test_echo(b text) returns text language sql as $$ select 'b=' || b $$;
  create function public.rest_test_add(x int, y int default 10) returns int language sql as $$ select x + y $$;
  create function public.rest_test_twice(a int) returns int language sql as $$ select a * 2 $$;
  create function public.rest_test_twice(a text) returns text language sql as $$ select a || a $$;
  create function public.rest_test_numbers(n int) returns setof int language sql stable as $$ select generate_series(1, n) $$;
  create function public.rest_test_person(p_id int) returns public.rest_test_people language sql stable
    as $$ select * from public.rest_test_people where id = p_id $$;
  create function public.rest_test_people_named(p_prefix text) returns setof public.rest_test_people language sql stable
    as $$ select * from public.rest_test_people where name like p_prefix || '%' $$;
  insert into public.rest_test_people values
    (1, 'Ada', '{"age": 36, "address": {"city": "London"}, "phones": [{"number": "111"}]}', '{math,poetry}', '1815-12-10', 12.5),
    (2, 'Alan', '{"age": 41, "address": {"city": "Manchester"}, "phones": []}', '{math}', '1912-06-23', 99.25),
    (3, 'Grace', '{"age": 85, "address": {"city": "New York"}}', '{navy,math}', '1906-12-09', null);
  insert into public.rest_test_pairs values (10, 1, 2, 'colleagues'), (11, 3, 1, 'admirers');
`;

describeOnEngines('rest/v1 finds any schema in the catalog', (ctx) => {
  let config: Awaited<ReturnType<typeof newLocalConfig>>;
  let api: RestApi;
  let client: SupabaseClient;

  beforeAll(async () => {
    config = await newLocalConfig();
    api = createRestApi({ db: ctx.db, config });
    client = clientFor(config, api, config.serviceRoleKey);
    expect((await client.from('brands').select('id').limit(1)).error).toBeNull();
    // Time stands still, so the cache never looks old enough to reload by itself.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now());
    await ctx.db.exec(TEST_SCHEMA);
  });
  afterAll(async () => {
    vi.useRealTimers();
    await config.cleanup();
  });

  it('serves a table created after start once the schema is reloaded on demand', async () => {
    const before = await client.from('rest_test_people').select('id');
    expect(before.status).toBe(404);
    expect(before.error).toMatchObject({ code: 'PGRST205', message: `Could not find the table 'public.rest_test_people' in the schema cache` });
    await api.reloadSchema();
    const { data, error } = await client.from('rest_test_people').select('id, name').order('id');
    expect(error).toBeNull();
    expect(data).toEqual([{ id: 1, name: 'Ada' }, { id: 2, name: 'Alan' }, { id: 3, name: 'Grace' }]);
  });

  it('reloads by itself when asked for a name it does not know and its cache is older than a second', async () => {
    await ctx.db.exec(`create table public.rest_test_late (id int primary key); insert into public.rest_test_late values (7)`);
    vi.setSystemTime(Date.now() + 5_000);
    const { data, error } = await client.from('rest_test_late').select('id');
    expect(error).toBeNull();
    expect(data).toEqual([{ id: 7 }]);
  });

  it('selects, filters and orders by paths inside JSON columns', async () => {
    const { data, error } = await client.from('rest_test_people')
      .select('name, city:data->address->>city, data->phones->0->>number, age:data->age')
      .gt('data->age', 40)
      .order('data->age', { ascending: false });
    expect(error).toBeNull();
    expect(data).toEqual([
      { name: 'Grace', city: 'New York', number: null, age: 85 },
      { name: 'Alan', city: 'Manchester', number: null, age: 41 },
    ]);
    const london = await client.from('rest_test_people').select('name, number:data->phones->0->>number').eq('data->address->>city', 'London');
    expect(london.data).toEqual([{ name: 'Ada', number: '111' }]);
  });

  it('compares dates, numbers and arrays with their own types', async () => {
    const born = await client.from('rest_test_people').select('name').lt('born', '1900-01-01');
    expect(born.data).toEqual([{ name: 'Ada' }]);
    const score = await client.from('rest_test_people').select('name, score, score_text:score::text').gte('score', 12.5).order('score');
    expect(score.data).toEqual([{ name: 'Ada', score: 12.5, score_text: '12.50' }, { name: 'Alan', score: 99.25, score_text: '99.25' }]);
    const tags = await client.from('rest_test_people').select('name').contains('tags', ['math', 'navy']);
    expect(tags.data).toEqual([{ name: 'Grace' }]);
  });

  it('writes JSON objects, arrays, dates and numbers into their columns', async () => {
    const row = { id: 4, name: 'Katherine', data: { age: 101, nested: [1, { deep: true }] }, tags: ['space', 'math'], born: '1918-08-26', score: 3.75 };
    const { data, error } = await client.from('rest_test_people').insert(row).select().single();
    expect(error).toBeNull();
    expect(data).toEqual(row);
    const { rows } = await ctx.db.query(`select data->'nested'->1->>'deep' as deep, tags[1] as first_tag, born::text from public.rest_test_people where id = 4`);
    expect(rows).toEqual([{ deep: 'true', first_tag: 'space', born: '1918-08-26' }]);
  });

  it('disambiguates two foreign keys to the same table with a column or constraint hint', async () => {
    const ambiguous = await client.from('rest_test_pairs').select('id, rest_test_people(name)');
    expect(ambiguous.status).toBe(300);
    expect(ambiguous.error).toMatchObject({ code: 'PGRST201' });
    const { data, error } = await client.from('rest_test_pairs')
      .select('id, first:rest_test_people!first_person(name), second:rest_test_people!rest_test_pairs_second_person_fkey(name)')
      .order('id');
    expect(error).toBeNull();
    expect(data).toEqual([
      { id: 10, first: { name: 'Ada' }, second: { name: 'Alan' } },
      { id: 11, first: { name: 'Grace' }, second: { name: 'Ada' } },
    ]);
    const reverse = await client.from('rest_test_people').select('name, firsts:rest_test_pairs!first_person(id)').eq('id', 1);
    expect(reverse.data).toEqual([{ name: 'Ada', firsts: [{ id: 10 }] }]);
  });

  it('carries foreign keys over to views and chains of views', async () => {
    const { data, error } = await client.from('rest_test_pair_view_chained').select('pair_id, rest_test_people(name)').order('pair_id');
    expect(error).toBeNull();
    expect(data).toEqual([{ pair_id: 10, rest_test_people: { name: 'Ada' } }, { pair_id: 11, rest_test_people: { name: 'Grace' } }]);
  });

  it('chooses the overload of a function by the names of the arguments given', async () => {
    expect((await client.rpc('rest_test_echo', { a: 1 })).data).toBe('a=1');
    expect((await client.rpc('rest_test_echo', { a: 1, b: 'x' })).data).toBe('a=1,b=x');
    expect((await client.rpc('rest_test_echo', { b: 'y' })).data).toBe('b=y');
    expect((await client.rpc('rest_test_echo', { c: 1 })).error).toMatchObject({ code: 'PGRST202' });
    expect((await client.rpc('rest_test_add', { x: 1 })).data).toBe(11);
    expect((await client.rpc('rest_test_add', { x: 1, y: 2 })).data).toBe(3);
  });

  it('answers 300 PGRST203 when overloads differ only in argument types', async () => {
    const { error, status } = await client.rpc('rest_test_twice', { a: 2 });
    expect(status).toBe(300);
    expect(error).toMatchObject({ code: 'PGRST203' });
  });

  it('returns sets of scalars as arrays that can be filtered and ordered, and one row as an object', async () => {
    expect((await client.rpc('rest_test_numbers', { n: 3 })).data).toEqual([1, 2, 3]);
    const filtered = await client.rpc('rest_test_numbers', { n: 5 }).gt('rest_test_numbers', 2).order('rest_test_numbers', { ascending: false });
    expect(filtered.data).toEqual([5, 4, 3]);
    expect((await client.rpc('rest_test_person', { p_id: 2 })).data).toMatchObject({ id: 2, name: 'Alan' });
  });

  it('embeds related rows in the result of a function returning rows of a table', async () => {
    const { data, error } = await client.rpc('rest_test_people_named', { p_prefix: 'A' }, { get: true })
      .select('name, rest_test_pairs!first_person(note)')
      .order('name');
    expect(error).toBeNull();
    expect(data).toEqual([{ name: 'Ada', rest_test_pairs: [{ note: 'colleagues' }] }, { name: 'Alan', rest_test_pairs: [] }]);
  });
});

describe('rest/v1 builds byte-identical JSON on every engine', () => {
  const engines = availableEngines();
  const stacks: { db: Database; api: RestApi; anonKey: string; cleanup(): Promise<void> }[] = [];
  const paths = [
    'brands?select=id,name,created_at,ads_with_flags(id,created_at,width,tags(name))&order=name&ads_with_flags.order=created_at.desc',
    'ads_with_flags?select=id,brand_name,tag_names,is_black_friday,width,height,thumbhash,category:categories!inner(name)&category.name=eq.Shoes&order=created_at',
    'ads_with_flags?select=id,...brands(brand:name),created_at::date&or=(width.gt.1000,tag_names.cs.{Sale})&order=id',
    'brands?select=name,ads_with_flags(count)&order=name.desc',
  ];

  beforeAll(async () => {
    for (const engine of engines) {
      const db = await openTestDatabase(engine);
      const config = await newLocalConfig();
      await db.exec(`
        insert into public.brands (id, name, created_at) values
          ('00000000-0000-4000-8000-00000000000a', 'Acme', '2026-01-01T00:00:00.123456Z'),
          ('00000000-0000-4000-8000-00000000000b', 'Beta', '2026-01-02T00:00:00Z');
        insert into public.categories (id, name) values ('00000000-0000-4000-8000-0000000000c1', 'Shoes'), ('00000000-0000-4000-8000-0000000000c2', 'Hats');
        insert into public.tags (id, name) values ('00000000-0000-4000-8000-0000000000f1', 'Sale');`);
      const plan: [string, string, string, number, string[]][] = [
        ['00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-0000000000c1', 1080, ['00000000-0000-4000-8000-0000000000f1']],
        ['00000000-0000-4000-8000-0000000000a2', '00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-0000000000c2', 1200, []],
        ['00000000-0000-4000-8000-0000000000a3', '00000000-0000-4000-8000-00000000000b', '00000000-0000-4000-8000-0000000000c1', 640, []],
      ];
      for (const [i, [id, brandId, categoryId, width, tags]] of plan.entries()) {
        const ad = await newAd(db, { brandId, categoryId, width, createdAt: `2026-02-0${i + 1}T09:30:00.5Z` });
        await db.query('update public.ads set id = $1 where id = $2', [id, ad.id]);
        for (const tag of tags) await db.query('insert into public.ad_tags (ad_id, tag_id) values ($1, $2)', [id, tag]);
      }
      stacks.push({
        db,
        api: createRestApi({ db, config }),
        anonKey: config.anonKey,
        cleanup: async () => {
          await db.close();
          await config.cleanup();
        },
      });
    }
  });
  afterAll(async () => {
    for (const stack of stacks) await stack.cleanup();
  });

  for (const path of paths) {
    it(`answers ${path.split('?')[0]} with the same bytes on ${engines.join(' and ')}`, async () => {
      const answers = [];
      for (const { api, anonKey } of stacks) {
        const response = await api(new Request(`${TEST_ORIGIN}/rest/v1/${path}`, { headers: { apikey: anonKey, prefer: 'count=exact' } }));
        answers.push({ status: response.status, range: response.headers.get('content-range'), body: await response.text() });
      }
      expect(answers[0]!.status).toBe(200);
      expect(answers[0]!.body.length).toBeGreaterThan(20);
      for (const answer of answers) expect(answer).toEqual(answers[0]);
    });
  }
});
