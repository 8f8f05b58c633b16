import { randomBytes } from 'node:crypto';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { expect } from 'vitest';
import WebSocket from 'ws';
import { createAuthApi } from '../../local/auth/auth-api.ts';
import type { AuthApiOptions } from '../../local/auth/auth-settings.ts';
import type { AuthRateLimits } from '../../local/auth/rate-limits.ts';
import { apiKeys } from '../../local/auth/jwt.ts';
import { type LocalConfig, readConfig } from '../../local/config.ts';
import type { Database } from '../../local/db/database.ts';
import type { ApiHandler } from '../../local/http/api-handler.ts';
import { CLIENT_IP_HEADER } from '../../local/http/node-adapter.ts';
import { createMailer, type Mailer } from '../../local/mail/mailer.ts';

export const SITE_URL = 'http://localhost:3000';

export interface AuthHarness {
  config: LocalConfig;
  mailer: Mailer;
  api: ApiHandler;
  /** fetch as a browser at this client address would see the local stack's auth API. */
  fetchFrom(address: string): typeof fetch;
  /** A supabase-js client talking to the auth API, as the SPA does. */
  client(options?: { flowType?: 'implicit' | 'pkce'; address?: string }): SupabaseClient;
  /** A server-side client with the service-role key, for auth.admin. */
  adminClient(): SupabaseClient;
  /** The link in the newest email to this address. */
  linkTo(email: string): string;
  /** Follows an email link as the browser does (no redirect following) and returns where it lands. */
  follow(link: string, address?: string): Promise<URL>;
}

export const uniqueEmail = (label = 'user') => `${label}-${randomBytes(5).toString('hex')}@example.test`;
export const uniqueAddress = () => `198.51.100.${Math.floor(Math.random() * 250) + 1}-${randomBytes(3).toString('hex')}`;

export async function testConfig(): Promise<LocalConfig> {
  const base = readConfig({ SITE_URL, DATA_DIR: '.tmp/auth-tests' });
  return { ...base, siteUrl: SITE_URL, ...(await apiKeys(base.JWT_SECRET)) };
}

/** Generous limits unless a test sets its own, so that tests never trip over each other's counts. */
const RELAXED_LIMITS: AuthRateLimits = {
  signInFailures: { max: 1000, windowSeconds: 300 },
  accountSignInFailures: { max: 1000, windowSeconds: 60 },
  accountSignInFailuresEverywhere: { max: 1000, windowSeconds: 60 },
  signUps: { max: 1000, windowSeconds: 3600 },
  emailRequests: { max: 1000, windowSeconds: 3600 },
  emailsPerAddress: { max: 1000, windowSeconds: 60 },
  verifications: { max: 1000, windowSeconds: 300 },
  tokenRefreshes: { max: 1000, windowSeconds: 300 },
};

export async function authHarness(db: Database, options: AuthApiOptions & { mailer?: Mailer } = {}): Promise<AuthHarness> {
  const config = await testConfig();
  const mailer = options.mailer ?? (await createMailer());
  const api = createAuthApi({
    db,
    config,
    mailer,
    google: null,
    ...options,
    rateLimits: { ...RELAXED_LIMITS, ...options.rateLimits },
  });
  const fetchFrom =
    (address: string): typeof fetch =>
    async (input, init) => {
      const request = new Request(input, init);
      const headers = new Headers(request.headers);
      headers.set(CLIENT_IP_HEADER, address);
      const routed = new Request(request, { headers });
      if (new URL(routed.url).pathname.startsWith('/auth/v1/')) return api(routed);
      return Response.json({ message: 'not served in auth tests' }, { status: 404 });
    };
  const clientWithKey = (key: string, flowType: 'implicit' | 'pkce', address: string) =>
    createClient(SITE_URL, key, {
      global: { fetch: fetchFrom(address) },
      // Node 20 has no WebSocket; supabase-js needs one to construct its (unused here) realtime client.
      realtime: { transport: WebSocket as never },
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false, flowType },
    });
  const harness: AuthHarness = {
    config,
    mailer,
    api,
    fetchFrom,
    client({ flowType = 'implicit', address = uniqueAddress() } = {}) {
      return clientWithKey(config.anonKey, flowType, address);
    },
    adminClient() {
      return clientWithKey(config.serviceRoleKey, 'implicit', uniqueAddress());
    },
    linkTo(email) {
      const sent = mailer.latestTo(email);
      expect(sent, `an email to ${email}`).toBeDefined();
      return sent!.links[0]!;
    },
    async follow(link, address = uniqueAddress()) {
      const response = await fetchFrom(address)(link, { redirect: 'manual' });
      expect([302, 303]).toContain(response.status);
      return new URL(response.headers.get('location')!);
    },
  };
  return harness;
}

/** The parameters of a URL fragment (#a=1&b=2). */
export const fragmentOf = (url: URL) => new URLSearchParams(url.hash.replace(/^#/, ''));

/** Signs a new user up through the API and follows the confirmation link; returns their credentials. */
export async function confirmedUser(
  harness: AuthHarness,
  options: { email?: string; password?: string; data?: Record<string, unknown> } = {},
): Promise<{ email: string; password: string; id: string }> {
  const email = options.email ?? uniqueEmail();
  const password = options.password ?? `pw-${randomBytes(6).toString('hex')}`;
  const client = harness.client();
  const { data, error } = await client.auth.signUp({ email, password, options: { data: options.data ?? {} } });
  expect(error).toBeNull();
  const landing = await harness.follow(harness.linkTo(email));
  expect(fragmentOf(landing).get('access_token')).toBeTruthy();
  return { email, password, id: data.user!.id };
}
