import { AuthClient } from '@supabase/auth-js';
import { FunctionsClient } from '@supabase/functions-js';
import { PostgrestClient } from '@supabase/postgrest-js';
import type { RealtimeChannel, RealtimeClient } from '@supabase/realtime-js';
import type { FileObject, StorageClient } from '@supabase/storage-js';
import type { Database } from './database.types.ts';
import { env } from './env.ts';

/**
 * The one Supabase client of the SPA, assembled from supabase-js's own parts
 * so that every page does not download all of them: auth (session in local
 * storage, refreshed before expiry, PKCE for links), rest/v1 and functions are
 * loaded with the page; Realtime (only a signed-in user's boards listen) and the
 * Storage client (only admins upload and remove) are fetched when first used.
 * Public file URLs need no client. The surface is supabase-js's: `auth`,
 * `from`, `rpc`, `functions`, `storage.from(bucket)`, `channel`, `removeChannel`.
 */
const url = env.supabaseUrl.replace(/\/+$/, '');
const key = env.supabaseAnonKey;
const apiHeaders = { apikey: key, Authorization: `Bearer ${key}` };

const auth = new AuthClient({
  url: `${url}/auth/v1`,
  headers: apiHeaders,
  // supabase-js's default key: sessions saved before this client keep working.
  storageKey: `sb-${new URL(url).hostname.split('.')[0]}-auth-token`,
  persistSession: true,
  autoRefreshToken: true,
  detectSessionInUrl: true,
  flowType: 'pkce',
});

async function accessToken(): Promise<string> {
  const { data } = await auth.getSession();
  return data.session?.access_token ?? key;
}

/** fetch with the API key and the signed-in user's token (else the anonymous key), as supabase-js sends them. */
const fetchWithAuth: typeof fetch = async (input, init) => {
  const headers = new Headers(init?.headers);
  if (!headers.has('apikey')) headers.set('apikey', key);
  if (!headers.has('Authorization')) headers.set('Authorization', `Bearer ${await accessToken()}`);
  return fetch(input, { ...init, headers });
};

// Typed by the database's own catalog (npm run db:types): every table, column, rpc and argument is checked by tsc.
const rest = new PostgrestClient<Database>(`${url}/rest/v1`, { fetch: fetchWithAuth });
const functions = new FunctionsClient(`${url}/functions/v1`, { customFetch: fetchWithAuth });

let storageClient: Promise<StorageClient> | null = null;
function loadStorage(): Promise<StorageClient> {
  storageClient ??= import('@supabase/storage-js').then(({ StorageClient }) => new StorageClient(`${url}/storage/v1`, {}, fetchWithAuth));
  return storageClient;
}

type UploadBody = Parameters<ReturnType<StorageClient['from']>['upload']>[1];
type UploadOptions = Parameters<ReturnType<StorageClient['from']>['upload']>[2];

const storage = {
  from(bucket: string) {
    return {
      /** The address of a file in a public bucket (no request). */
      getPublicUrl: (path: string) => ({ data: { publicUrl: encodeURI(`${url}/storage/v1/object/public/${bucket}/${path.replace(/^\/+/, '')}`) } }),
      upload: async (path: string, body: UploadBody, options?: UploadOptions) => (await loadStorage()).from(bucket).upload(path, body, options),
      remove: async (paths: string[]): Promise<{ data: FileObject[] | null; error: Error | null }> => (await loadStorage()).from(bucket).remove(paths),
    };
  },
};

let realtimeClient: Promise<RealtimeClient> | null = null;
function loadRealtime(): Promise<RealtimeClient> {
  realtimeClient ??= import('@supabase/realtime-js').then(async ({ RealtimeClient }) => {
    const client = new RealtimeClient(`${url.replace(/^http/, 'ws')}/realtime/v1`, { params: { apikey: key }, accessToken });
    await client.setAuth();
    // A new token (sign-in, refresh) is given to the open channels; signing out drops back to the anonymous key.
    auth.onAuthStateChange((event, session) => {
      if (event === 'SIGNED_IN' || event === 'TOKEN_REFRESHED') void client.setAuth(session?.access_token ?? null);
      else if (event === 'SIGNED_OUT') void client.setAuth();
    });
    return client;
  });
  return realtimeClient;
}

interface ChangeFilter {
  event: '*' | 'INSERT' | 'UPDATE' | 'DELETE';
  schema: string;
  table?: string;
  filter?: string;
}
type ChangeListener = ['postgres_changes', ChangeFilter, (payload: unknown) => void];
type ListenOn = (...listener: ChangeListener) => RealtimeChannel;
type SubscribeCallback = Parameters<RealtimeChannel['subscribe']>[0];

/**
 * A Realtime channel handed out at once, like supabase-js's: its listeners and
 * subscription are applied once the Realtime client has loaded.
 */
class DeferredChannel {
  private readonly listeners: ChangeListener[] = [];
  private channel: Promise<RealtimeChannel> | null = null;
  private removed = false;

  constructor(private readonly name: string) {}

  on(type: 'postgres_changes', filter: ChangeFilter, callback: (payload: unknown) => void): this {
    this.listeners.push([type, filter, callback]);
    return this;
  }

  subscribe(callback?: SubscribeCallback): this {
    this.channel = loadRealtime().then((client) => {
      const channel = client.channel(this.name);
      for (const listener of this.listeners) (channel.on.bind(channel) as ListenOn)(...listener);
      if (!this.removed) channel.subscribe(callback);
      return channel;
    });
    return this;
  }

  async remove(): Promise<Awaited<ReturnType<RealtimeClient['removeChannel']>>> {
    this.removed = true;
    if (!this.channel) return 'ok';
    const [client, channel] = await Promise.all([loadRealtime(), this.channel]);
    return client.removeChannel(channel);
  }
}

export const supabase = {
  auth,
  from: rest.from.bind(rest),
  rpc: rest.rpc.bind(rest),
  functions,
  storage,
  channel: (name: string) => new DeferredChannel(name),
  removeChannel: (channel: DeferredChannel) => channel.remove(),
};
