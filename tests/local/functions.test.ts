import { afterAll, beforeAll, expect, it } from 'vitest';
import { startLocalStack, type LocalStack } from '../../local/stack.ts';
import { functionsWithoutJwt } from '../../local/functions/functions-config.ts';
import { describeOnEngines } from '../support/engines.ts';
import { grantAdmin, newAd, newBrand, newCategory, newUser, type TestUser } from '../support/factories.ts';
import { userToken } from '../support/local-config.ts';

describeOnEngines('functions/v1', (ctx) => {
  let stack: LocalStack;
  let admin: TestUser;
  let free: TestUser;
  const call = async (user: TestUser | null, body: unknown = {}, token?: string) =>
    fetch(`${stack.url}/functions/v1/tag-yesterdays-ads`, {
      method: 'POST',
      headers: {
        apikey: stack.config.anonKey,
        'content-type': 'application/json',
        authorization: `Bearer ${token ?? (user ? await userToken(stack.config, user) : stack.config.anonKey)}`,
      },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    stack = await startLocalStack({ db: ctx.db, port: 0, env: { DATA_DIR: `.tmp/functions-${process.pid}-${ctx.engine}` } });
    admin = await newUser(ctx.db);
    await grantAdmin(ctx.db, admin);
    free = await newUser(ctx.db);
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('runs tag-yesterdays-ads for an admin: the round trip reaches the database as the caller', async () => {
    const brand = await newBrand(ctx.db);
    const category = await newCategory(ctx.db);
    const ad = await newAd(ctx.db, { brandId: brand.id, categoryId: category.id, createdAt: '2026-03-04T10:00:00Z' });
    const response = await call(admin, { day: '2026-03-04' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ message: 'Tagged 1 ad(s) uploaded on 2026-03-04 with Black Friday.', tagged: 1 });
    const { rows } = await ctx.db.query<{ is_black_friday: boolean }>('select is_black_friday from public.ads where id = $1', [ad.id]);
    expect(rows[0]!.is_black_friday).toBe(true);
  });

  it('answers a free user with 403 admin_required and an anonymous caller with the same', async () => {
    expect((await call(free)).status).toBe(403);
    const anonymous = await call(null);
    expect(anonymous.status).toBe(403);
    expect(await anonymous.json()).toEqual({ error: { code: 'admin_required', message: 'This operation requires admin privileges.' } });
  });

  it('refuses a forged token before the function runs', async () => {
    const forged = `${(await userToken(stack.config, admin)).slice(0, -4)}AAAA`;
    const response = await call(null, {}, forged);
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('invalid_jwt');
  });

  it('answers CORS preflight requests', async () => {
    const response = await fetch(`${stack.url}/functions/v1/tag-yesterdays-ads`, { method: 'OPTIONS' });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-headers')).toContain('authorization');
  });

  it('comes back after the Deno process is killed', async () => {
    const pid = stack.functions.pid();
    expect(pid).toBeTypeOf('number');
    process.kill(pid!, 'SIGKILL');
    const response = await call(admin, { day: '2026-03-05' });
    expect(response.status).toBe(200);
    expect(stack.functions.pid()).not.toBe(pid);
  });
});

it('reads verify_jwt = false per function from config.toml', () => {
  const toml = '[functions.stripe-webhook]\nverify_jwt = false\n\n[functions.check-subscription]\nverify_jwt = true\n[auth]\nverify_jwt = false\n';
  expect([...functionsWithoutJwt(toml)]).toEqual(['stripe-webhook']);
});
