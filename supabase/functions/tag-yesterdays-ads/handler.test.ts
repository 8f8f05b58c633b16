import { createTagAdsHandler, type TagAdsOfDay } from './handler.ts';

const assertEquals = (actual: unknown, expected: unknown) => {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) throw new Error(`Expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
};

const calls: { token: string; day: string | null }[] = [];
const succeeding: TagAdsOfDay = async (token, day) => {
  calls.push({ token, day });
  return { data: { message: 'Tagged 3 ad(s) uploaded on 2026-11-21 with Black Friday.', tagged: 3 }, error: null };
};
const post = (body?: string, token: string | null = 'user-token') =>
  new Request('http://local/tag-yesterdays-ads', {
    method: 'POST',
    headers: token ? { authorization: `Bearer ${token}`, 'content-type': 'application/json' } : {},
    body,
  });

Deno.test('rejects bad requests with the functions error shape', async (t) => {
  const handler = createTagAdsHandler(succeeding);
  const cases: [string, Request, number, unknown][] = [
    ['GET', new Request('http://local/tag-yesterdays-ads'), 405, { error: { code: 'method_not_allowed', message: 'Use POST' } }],
    ['no token', post('{}', null), 401, { error: { code: 'not_authenticated', message: 'Sign in as an admin to tag ads' } }],
    ['not JSON', post('{day'), 400, { error: { code: 'invalid_body', message: 'The body must be JSON' } }],
    ['bad day', post('{"day":"21/11/2026"}'), 400, { error: { code: 'invalid_body', message: 'day: day must be YYYY-MM-DD' } }],
    ['no such day', post('{"day":"2026-02-30"}'), 400, { error: { code: 'invalid_body', message: 'day: day must be a date of the calendar' } }],
    ['year zero', post('{"day":"0000-01-01"}'), 400, { error: { code: 'invalid_body', message: 'day: day must be a date of the calendar' } }],
  ];
  for (const [name, request, status, body] of cases) {
    await t.step(name, async () => {
      const response = await handler(request);
      assertEquals(response.status, status);
      assertEquals(await response.json(), body);
    });
  }
  assertEquals(calls.length, 0);
});

Deno.test('tags the requested day as the caller and answers the message', async () => {
  const response = await createTagAdsHandler(succeeding)(post('{"day":"2026-11-21"}'));
  assertEquals(response.status, 200);
  assertEquals(await response.json(), { message: 'Tagged 3 ad(s) uploaded on 2026-11-21 with Black Friday.', tagged: 3 });
  assertEquals(calls.at(-1), { token: 'user-token', day: '2026-11-21' });
});

Deno.test('defaults to yesterday by leaving the day to the database', async () => {
  await createTagAdsHandler(succeeding)(post(''));
  assertEquals(calls.at(-1), { token: 'user-token', day: null });
});

Deno.test('answers 403 admin_required when the database refuses a non-admin', async () => {
  const refusing: TagAdsOfDay = async () => ({ data: null, error: { code: '42501', message: 'This operation requires admin privileges.' } });
  const response = await createTagAdsHandler(refusing)(post('{}'));
  assertEquals(response.status, 403);
  assertEquals(await response.json(), { error: { code: 'admin_required', message: 'This operation requires admin privileges.' } });
});
