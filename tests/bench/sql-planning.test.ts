import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openPostgres } from '../../local/db/postgres.ts';
import { adminUrl } from '../support/engines.ts';

const run = promisify(execFile);

/** bench/sql-planning.sh counts the plans of each call and their time, and fails when the call does. */
describe('the planning report (bench/sql-planning.sh)', () => {
  const name = `obyect_planning_${randomBytes(6).toString('hex')}`;

  beforeAll(async () => {
    const template = inject('postgresTemplate');
    if (!template) throw new Error('bench/sql-planning.sh needs PostgreSQL, which this run does not have');
    const admin = await openPostgres({ connectionString: adminUrl(), max: 1 });
    try {
      await admin.exec(`create database ${name} template ${template}`);
    } finally {
      await admin.close();
    }
  });

  afterAll(async () => {
    const admin = await openPostgres({ connectionString: adminUrl(), max: 1 });
    try {
      await admin.exec(`drop database if exists ${name} with (force)`);
    } finally {
      await admin.close();
    }
  });

  const script = (call: string, calls: string) =>
    run('bash', ['bench/sql-planning.sh', name, call, calls], { env: { ...process.env, BENCH_DATABASE_URL: adminUrl() } });

  it('prints the p50 of the plans made, their milliseconds and the execution over the calls asked', async () => {
    // Dynamic SQL is planned on every call: one statement a call at least, whatever plans the session kept.
    const dynamic = await script(`(select count(*) from pg_class where relname = (select 'pg_' || 'class'))`, '3');
    const report = /^plans a call (\d+), planning (\d+\.\d\d) ms, execution (\d+\.\d\d) ms \(p50 of 3 calls\)$/.exec(dynamic.stdout.trim());
    expect(report).not.toBeNull();
    expect(Number(report![1])).toBeGreaterThanOrEqual(1);
    expect(Number(report![2])).toBeGreaterThan(0);

    const page = await script('public.list_ads()', '4');
    expect(page.stdout.trim()).toMatch(/^plans a call [1-9]\d*, planning \d+\.\d\d ms, execution \d+\.\d\d ms \(p50 of 4 calls\)$/);
  });

  it('fails, saying so, when the call does', async () => {
    const failed = await script(`public.list_ads('{"sort": "sideways"}')`, '3').then(
      () => null,
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failed).not.toBeNull();
    expect(failed!.code).not.toBe(0);
    expect(failed!.stdout).toMatch(/ERROR: +Unknown order sideways/);
    expect(failed!.stderr).toContain('the call failed or did not run 3 times');
  });
});
