import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { apiKeys, signJwt } from '../../local/auth/jwt.ts';
import { readConfig, type LocalConfig } from '../../local/config.ts';
import type { ApiHandler } from '../../local/http/api-handler.ts';

export const TEST_ORIGIN = 'http://local.test';

/** A local stack configuration with its own temporary data folder. */
export async function newLocalConfig(env: Record<string, string> = {}): Promise<LocalConfig & { cleanup(): Promise<void> }> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'obyect-stack-'));
  const base = readConfig({ DATA_DIR: dataDir, ...env });
  const keys = await apiKeys(base.JWT_SECRET);
  return {
    ...base,
    siteUrl: base.SITE_URL ?? TEST_ORIGIN,
    ...keys,
    cleanup: () => rm(dataDir, { recursive: true, force: true }),
  };
}

/** An access token for a user, as the local auth would issue it. */
export function userToken(config: LocalConfig, user: { id: string; email?: string }, expiresIn = 3600): Promise<string> {
  return signJwt({ sub: user.id, role: 'authenticated', aud: 'authenticated', email: user.email }, config.JWT_SECRET, expiresIn);
}

/** The official client, wired to a handler without a server; with a token it acts as that user. */
export function clientFor(config: LocalConfig, handler: ApiHandler, accessToken?: string): SupabaseClient {
  return createClient(TEST_ORIGIN, config.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    // Node 20 has no global WebSocket.
    realtime: { transport: WebSocket as never },
    global: {
      fetch: (input, init) => handler(new Request(input, init)),
      headers: accessToken ? { Authorization: `Bearer ${accessToken}` } : {},
    },
  });
}
