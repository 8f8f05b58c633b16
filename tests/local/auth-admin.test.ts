import { beforeAll, expect, it } from 'vitest';
import { describeOnEngines } from '../support/engines.ts';
import { type AuthHarness, authHarness, confirmedUser, fragmentOf, SITE_URL, uniqueEmail } from './auth-harness.ts';

describeOnEngines('auth: the admin API for the service role', (ctx) => {
  let harness: AuthHarness;
  beforeAll(async () => {
    harness = await authHarness(ctx.db);
  });

  it('creates a confirmed user with a password and metadata, who can sign in at once', async () => {
    const email = uniqueEmail('admin-made');
    const { data, error } = await harness.adminClient().auth.admin.createUser({
      email,
      password: 'fixture-pass',
      email_confirm: true,
      user_metadata: { full_name: 'Fixture Person' },
    });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({ email, user_metadata: { full_name: 'Fixture Person' } });
    expect(data.user!.email_confirmed_at).toBeTruthy();
    const profile = await ctx.db.query('select full_name from public.profiles where user_id = $1', [data.user!.id]);
    expect(profile.rows[0]).toEqual({ full_name: 'Fixture Person' });
    expect((await harness.client().auth.signInWithPassword({ email, password: 'fixture-pass' })).error).toBeNull();
    expect(harness.mailer.latestTo(email)).toBeUndefined();
  });

  it('refuses an address that is taken with email_exists', async () => {
    const { email } = await confirmedUser(harness);
    const { error } = await harness.adminClient().auth.admin.createUser({ email, password: 'fixture-pass', email_confirm: true });
    expect(error).toMatchObject({ status: 422, code: 'email_exists' });
  });

  it('refuses the anon key and user tokens', async () => {
    const { error } = await harness.client().auth.admin.createUser({ email: uniqueEmail(), password: 'fixture-pass' });
    expect(error).toMatchObject({ status: 403, code: 'not_admin' });
  });

  it('gets, updates, bans and deletes a user by id', async () => {
    const { id, email, password } = await confirmedUser(harness, { data: { full_name: 'Before' } });
    const admin = harness.adminClient().auth.admin;
    expect((await admin.getUserById(id)).data.user).toMatchObject({ id, email });

    const updated = await admin.updateUserById(id, { user_metadata: { full_name: 'After' }, app_metadata: { tier: 'test' } });
    expect(updated.data.user).toMatchObject({ user_metadata: { full_name: 'After' }, app_metadata: { provider: 'email', tier: 'test' } });

    const client = harness.client();
    await client.auth.signInWithPassword({ email, password });
    expect((await admin.updateUserById(id, { ban_duration: '24h' })).error).toBeNull();
    expect((await client.auth.refreshSession()).error?.code).toBe('refresh_token_not_found');
    expect((await harness.client().auth.signInWithPassword({ email, password })).error?.code).toBe('user_banned');
    expect((await admin.updateUserById(id, { ban_duration: 'none' })).error).toBeNull();
    expect((await harness.client().auth.signInWithPassword({ email, password })).error).toBeNull();

    expect((await admin.deleteUser(id)).error).toBeNull();
    expect((await admin.getUserById(id)).error).toMatchObject({ status: 404, code: 'user_not_found' });
    expect((await ctx.db.query('select 1 from public.profiles where user_id = $1', [id])).rows).toHaveLength(0);
  });

  it('lists users page by page with the total', async () => {
    await confirmedUser(harness);
    await confirmedUser(harness);
    const { data, error } = await harness.adminClient().auth.admin.listUsers({ page: 1, perPage: 1 });
    expect(error).toBeNull();
    expect(data.users).toHaveLength(1);
    expect((data as unknown as { total: number }).total).toBeGreaterThanOrEqual(2);
  });

  it('generates a recovery link without sending an email', async () => {
    const { email } = await confirmedUser(harness);
    const sentBefore = harness.mailer.list().length;
    const { data, error } = await harness.adminClient().auth.admin.generateLink({
      type: 'recovery',
      email,
      options: { redirectTo: `${SITE_URL}/auth/reset-password` },
    });
    expect(error).toBeNull();
    expect(data.properties).toMatchObject({ verification_type: 'recovery', redirect_to: `${SITE_URL}/auth/reset-password` });
    expect(harness.mailer.list().length).toBe(sentBefore);
    const landing = await harness.follow(data.properties!.action_link);
    expect(fragmentOf(landing).get('type')).toBe('recovery');
  });
});
