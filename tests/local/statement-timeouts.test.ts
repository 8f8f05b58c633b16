import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readConfig } from '../../local/config.ts';
import type { Engine } from '../../local/db/database.ts';
import { openPgliteWorker } from '../../local/db/pglite-worker.ts';
import { openPostgres } from '../../local/db/postgres.ts';
import { SUPABASE_STATEMENT_TIMEOUTS } from '../../local/db/statement-timeouts.ts';
import { MAX_PATTERN_LENGTH } from '../../local/rest/query-grammar.ts';
import { startLocalStack, type LocalStack } from '../../local/stack.ts';
import { adminUrl, availableEngines, postgresTestUrl } from '../support/engines.ts';
import { userToken } from '../support/local-config.ts';

/** A function the tests add to their own database: sleeps, then says which statement_timeout it ran under. */
const SLEEP_FUNCTION = `
  create function public.sleep_for_tests(seconds double precision) returns text language sql as $$
    select pg_sleep(seconds);
    select current_setting('statement_timeout');
  $$;
  grant execute on function public.sleep_for_tests(double precision) to anon, authenticated, service_role;`;

const TIMED_OUT = {
  code: '57014',
  details: null,
  hint: 'Ask for fewer rows or use narrower filters',
  message: 'The request took longer than its statement timeout allows and was stopped',
};

/**
 * The timeouts these stacks run with: shorter than hosted's 3 s and 8 s (the defaults, checked below), so that
 * waiting for each stop takes a second or two; they reach the engine through the same settings the defaults do.
 */
const TIMEOUTS = { STATEMENT_TIMEOUT_ANON_MS: '1000', STATEMENT_TIMEOUT_AUTHENTICATED_MS: '2000' };

/**
 * A stack started the way `npm start` starts it (the database opened from its settings, no injected
 * database), so the timeouts reach the engine through the same wiring: on PGlite a data folder loaded
 * from the migrated snapshot, on PostgreSQL a copy of the migrated template.
 */
async function startStackOn(engine: Engine): Promise<{ stack: LocalStack; cleanup(): Promise<void> }> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'obyect-timeouts-'));
  if (engine === 'pglite') {
    const seed = await openPgliteWorker({ dataDir: path.join(dataDir, 'pglite'), loadDataDir: await readFile(inject('pgliteSnapshot')) });
    await seed.exec(SLEEP_FUNCTION);
    await seed.close();
    const stack = await startLocalStack({ port: 0, env: { DATA_DIR: dataDir, ...TIMEOUTS } });
    return { stack, cleanup: () => rm(dataDir, { recursive: true, force: true }) };
  }
  const name = `obyect_test_${process.pid}_${randomBytes(6).toString('hex')}`;
  const admin = await openPostgres({ connectionString: adminUrl(), max: 1 });
  await admin.exec(`create database ${name} template ${inject('postgresTemplate')}`);
  const seed = await openPostgres({ connectionString: postgresTestUrl(name), max: 1 });
  await seed.exec(SLEEP_FUNCTION);
  await seed.close();
  const stack = await startLocalStack({ port: 0, env: { DATA_DIR: dataDir, DATABASE_URL: postgresTestUrl(name), ...TIMEOUTS } });
  return {
    stack,
    async cleanup() {
      await admin.exec(`drop database if exists ${name} with (force)`);
      await admin.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

interface Timed {
  status: number;
  body: unknown;
  /** ms from sending to the whole answer. */
  ms: number;
}

describe('statement timeout settings', () => {
  it("defaults to hosted Supabase's: anon 3 s, authenticated 8 s, service role none", () => {
    const config = readConfig({});
    expect([config.STATEMENT_TIMEOUT_ANON_MS, config.STATEMENT_TIMEOUT_AUTHENTICATED_MS, config.STATEMENT_TIMEOUT_SERVICE_ROLE_MS]).toEqual([
      3000, 8000, 0,
    ]);
    expect(SUPABASE_STATEMENT_TIMEOUTS).toEqual({ anon: 3000, authenticated: 8000, service_role: 0 });
  });

  it('takes other values from the environment and refuses ones that are not a whole number of ms', () => {
    expect(readConfig({ STATEMENT_TIMEOUT_ANON_MS: '500' }).STATEMENT_TIMEOUT_ANON_MS).toBe(500);
    expect(() => readConfig({ STATEMENT_TIMEOUT_ANON_MS: '-1' })).toThrow(/STATEMENT_TIMEOUT_ANON_MS: STATEMENT_TIMEOUT_ANON_MS must be 0 \(no limit\) or more/);
    expect(() => readConfig({ STATEMENT_TIMEOUT_AUTHENTICATED_MS: '3s' })).toThrow(/STATEMENT_TIMEOUT_AUTHENTICATED_MS/);
  });
});

for (const engine of availableEngines()) {
  describe(`statement timeouts by role through rest/v1 [${engine}]`, () => {
    let stack: LocalStack;
    let cleanup: () => Promise<void>;
    let userJwt: string;

    beforeAll(async () => {
      ({ stack, cleanup } = await startStackOn(engine));
      userJwt = await userToken(stack.config, { id: randomUUID(), email: 'timeouts@example.com' });
    });
    afterAll(async () => {
      await stack?.close();
      await cleanup?.();
    });

    const send = async (pathAndQuery: string, token: string): Promise<Timed> => {
      const started = performance.now();
      const response = await fetch(`${stack.url}/rest/v1/${pathAndQuery}`, {
        headers: { apikey: stack.config.anonKey, authorization: `Bearer ${token}` },
      });
      const body = await response.json();
      return { status: response.status, body, ms: performance.now() - started };
    };
    const sleep = (seconds: number, token: string) => send(`rpc/sleep_for_tests?seconds=${seconds}`, token);
    const oneBrand = (token: string) => send('brands?select=id,name&limit=1', token);

    it("sets each role's timeout in the request's transaction: anon 1 s, authenticated 2 s, service role none", async () => {
      expect(await sleep(0, stack.config.anonKey)).toMatchObject({ status: 200, body: '1s' });
      expect(await sleep(0, userJwt)).toMatchObject({ status: 200, body: '2s' });
      expect(await sleep(0, stack.config.serviceRoleKey)).toMatchObject({ status: 200, body: '0' });
    });

    it("stops a slow anonymous statement at 1 s with 57014, and another caller's read sent during it is answered long before", async () => {
      const slow = sleep(20, stack.config.anonKey);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const other = await oneBrand(stack.config.anonKey);
      const stopped = await slow;
      console.log(`[${engine}] slow anonymous statement answered after ${stopped.ms.toFixed(0)} ms; the other caller waited ${other.ms.toFixed(0)} ms`);

      expect(stopped).toMatchObject({ status: 500, body: TIMED_OUT });
      expect(stopped.ms).toBeGreaterThan(900);
      expect(stopped.ms).toBeLessThan(2500);
      expect(other.status).toBe(200);
      // PostgreSQL runs the read beside the slow one; PGlite runs one statement at a time, so the read waits
      // for the slow one's timeout (0.5 s here) and the engine's reopening (about 1 s on a quiet machine,
      // several on a loaded one), never for the 20 s it asked for.
      expect(other.ms).toBeLessThan(engine === 'postgres' ? 1000 : 10_000);
    }, 15_000);

    it('lets the engine serve again at once after a stop, with the data it had', async () => {
      const again = await oneBrand(stack.config.serviceRoleKey);
      expect(again.status).toBe(200);
      expect(again.ms).toBeLessThan(5000);
      expect(await sleep(0, stack.config.anonKey)).toMatchObject({ status: 200, body: '1s' });
    });

    it('gives a signed-in caller 2 s: past anon\u2019s 1 s it still runs, at 2 s it is stopped', async () => {
      const stopped = await sleep(3, userJwt);
      expect(stopped).toMatchObject({ status: 500, body: TIMED_OUT });
      expect(stopped.ms).toBeGreaterThan(1900);
      expect(stopped.ms).toBeLessThan(3000);
    }, 15_000);

    it('does not limit the service role', async () => {
      const long = await sleep(2.5, stack.config.serviceRoleKey);
      expect(long).toMatchObject({ status: 200, body: '0' });
      expect(long.ms).toBeGreaterThan(2400);
    }, 15_000);

    it(`refuses a like, ilike, match or imatch pattern longer than ${MAX_PATTERN_LENGTH} characters with 400`, async () => {
      const longest = 'a'.repeat(MAX_PATTERN_LENGTH);
      expect((await send(`ads_with_flags?select=id&brand_name=match.${longest}`, stack.config.anonKey)).status).toBe(200);
      for (const operator of ['like', 'ilike', 'match', 'imatch']) {
        const refused = await send(`ads_with_flags?select=id&brand_name=${operator}.${longest}b`, stack.config.anonKey);
        expect(refused).toMatchObject({
          status: 400,
          body: {
            code: 'PGRST100',
            message: `"failed to parse filter (${operator}): the pattern is longer than ${MAX_PATTERN_LENGTH} characters"`,
            details: `like, ilike, match and imatch patterns are at most ${MAX_PATTERN_LENGTH} characters; this one has ${MAX_PATTERN_LENGTH + 1}`,
          },
        });
      }
      const inLogic = await send(`ads_with_flags?select=id&or=(brand_name.ilike.${longest}b,brand_name.eq.x)`, stack.config.anonKey);
      expect(inLogic.status).toBe(400);
    });
  });
}
