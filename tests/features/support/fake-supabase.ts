import type { Session } from '@supabase/supabase-js';

/**
 * A stand-in for the SPA's Supabase client: the network boundary of the
 * component tests. Tests say what each RPC, table read and function answers
 * and read back what was called.
 */
export type Result = { data: unknown; error: { message: string; code?: string; details?: string } | null };
type RpcHandler = (args: Record<string, unknown>) => Result | Promise<Result>;

export interface TableQuery {
  table: string;
  columns: string | null;
  filters: Array<[string, string, unknown]>;
  order: string[];
  /** What the query does; a write carries its payload. */
  action: 'select' | 'insert' | 'update' | 'delete';
  payload?: unknown;
  /** .single(): an array answer resolves to its first row. */
  single?: boolean;
  limit?: number;
}
/** A Realtime postgres_changes subscription, as a component made it. */
export interface RealtimeSubscription {
  channel: string;
  filter: { event: string; schema: string; table: string };
  callback: (payload: unknown) => void;
  removed: boolean;
}
export interface StorageCall {
  bucket: string;
  action: 'upload' | 'remove';
  paths: string[];
  options?: unknown;
}
type StorageHandler = (call: StorageCall) => Result | Promise<Result>;
type TableHandler = (query: TableQuery) => Result | Promise<Result>;
type FunctionHandler = (body: unknown) => Result | Promise<Result>;
type AuthListener = (event: string, session: Session | null) => void;

class FakeSupabase {
  session: Session | null = null;
  rpcCalls: Array<{ name: string; args: Record<string, unknown> }> = [];
  tableQueries: TableQuery[] = [];
  functionCalls: Array<{ name: string; body: unknown }> = [];
  storageCalls: StorageCall[] = [];
  private storageHandler: StorageHandler | null = null;
  private rpcHandlers = new Map<string, RpcHandler>();
  private tableHandlers = new Map<string, TableHandler>();
  private functionHandlers = new Map<string, FunctionHandler>();
  private listeners = new Set<AuthListener>();
  realtime: RealtimeSubscription[] = [];

  reset() {
    this.realtime = [];
    this.session = null;
    this.rpcCalls = [];
    this.tableQueries = [];
    this.functionCalls = [];
    this.storageCalls = [];
    this.storageHandler = null;
    this.rpcHandlers.clear();
    this.tableHandlers.clear();
    this.functionHandlers.clear();
    this.listeners.clear();
  }

  onRpc(name: string, handler: RpcHandler) {
    this.rpcHandlers.set(name, handler);
  }

  onTable(table: string, handler: TableHandler) {
    this.tableHandlers.set(table, handler);
  }

  onFunction(name: string, handler: FunctionHandler) {
    this.functionHandlers.set(name, handler);
  }

  /** Answers storage uploads and removals (default: success). */
  onStorage(handler: StorageHandler) {
    this.storageHandler = handler;
  }

  /** The writes made to a table, in order. */
  writesTo(table: string) {
    return this.tableQueries.filter((query) => query.table === table && query.action !== 'select');
  }

  callsOf(name: string) {
    return this.rpcCalls.filter((call) => call.name === name).map((call) => call.args);
  }

  /** Delivers a postgres_changes event to the live subscriptions of the table. */
  emitRealtime(table: string, payload: unknown) {
    for (const subscription of this.realtime.filter((entry) => !entry.removed && entry.filter.table === table)) subscription.callback(payload);
  }

  /** Signs a user in or out as supabase-js would report it to listeners. */
  emitAuth(event: string, session: Session | null) {
    this.session = session;
    for (const listener of [...this.listeners]) listener(event, session);
  }

  private async storageCall(call: StorageCall): Promise<Result> {
    this.storageCalls.push(call);
    if (this.storageHandler) return this.storageHandler(call);
    return { data: call.action === 'upload' ? { path: call.paths[0], fullPath: `${call.bucket}/${call.paths[0]}` } : [], error: null };
  }

  readonly client = {
    auth: {
      onAuthStateChange: (listener: AuthListener) => {
        this.listeners.add(listener);
        const session = this.session;
        queueMicrotask(() => listener('INITIAL_SESSION', session));
        return { data: { subscription: { unsubscribe: () => this.listeners.delete(listener) } } };
      },
      getSession: async () => ({ data: { session: this.session }, error: null }),
      signOut: async () => {
        this.emitAuth('SIGNED_OUT', null);
        return { error: null };
      },
    },
    rpc: (name: string, args?: Record<string, unknown>) => {
      this.rpcCalls.push({ name, args: args ?? {} });
      const handler = this.rpcHandlers.get(name);
      return Promise.resolve(handler ? handler(args ?? {}) : { data: null, error: { message: `No answer for rpc ${name}`, code: 'PGRST202' } });
    },
    from: (table: string) => {
      const query: TableQuery = { table, columns: null, filters: [], order: [], action: 'select' };
      const write = (action: TableQuery['action'], payload?: unknown) => {
        query.action = action;
        query.payload = payload;
        return builder;
      };
      const builder = {
        select: (columns: string) => {
          query.columns = columns;
          return builder;
        },
        insert: (payload: unknown) => write('insert', payload),
        update: (payload: unknown) => write('update', payload),
        delete: () => write('delete'),
        eq: (column: string, value: unknown) => {
          query.filters.push([column, 'eq', value]);
          return builder;
        },
        in: (column: string, values: unknown[]) => {
          query.filters.push([column, 'in', values]);
          return builder;
        },
        order: (column: string) => {
          query.order.push(column);
          return builder;
        },
        limit: (count: number) => {
          query.limit = count;
          return builder;
        },
        single: () => {
          query.single = true;
          return builder;
        },
        then: (resolve: (result: Result) => unknown, reject?: (error: unknown) => unknown) => {
          this.tableQueries.push(query);
          const handler = this.tableHandlers.get(table);
          return Promise.resolve(handler ? handler(query) : { data: [], error: null })
            .then((result) => (query.single && Array.isArray(result.data) ? { ...result, data: result.data[0] ?? null } : result))
            .then(resolve, reject);
        },
      };
      return builder;
    },
    channel: (name: string) => {
      const subscriptions: RealtimeSubscription[] = [];
      const channel = {
        on: (_type: string, filter: RealtimeSubscription['filter'], callback: (payload: unknown) => void) => {
          subscriptions.push({ channel: name, filter, callback, removed: false });
          return channel;
        },
        subscribe: (onStatus?: (status: string) => void) => {
          this.realtime.push(...subscriptions);
          queueMicrotask(() => onStatus?.('SUBSCRIBED'));
          return channel;
        },
        unsubscribe: async () => {
          for (const subscription of subscriptions) subscription.removed = true;
          return 'ok';
        },
      };
      return channel;
    },
    removeChannel: async (channel: { unsubscribe: () => Promise<string> }) => channel.unsubscribe(),
    storage: {
      from: (bucket: string) => ({
        getPublicUrl: (path: string) => ({ data: { publicUrl: `https://storage.test/${bucket}/${path}` } }),
        upload: async (path: string, _body: unknown, options?: unknown) => this.storageCall({ bucket, action: 'upload', paths: [path], options }),
        remove: async (paths: string[]) => this.storageCall({ bucket, action: 'remove', paths }),
      }),
    },
    functions: {
      invoke: async (name: string, options?: { body?: unknown }) => {
        this.functionCalls.push({ name, body: options?.body });
        const handler = this.functionHandlers.get(name);
        if (handler) return handler(options?.body);
        return { data: null, error: Object.assign(new Error('Edge Function returned a non-2xx status code'), { context: new Response('', { status: 404 }) }) };
      },
    },
  };
}

export const fakeSupabase = new FakeSupabase();

/** A session as supabase-js holds it, for the given user. */
export function sessionFor(userId: string, email = `${userId}@example.test`): Session {
  return {
    access_token: `token-${userId}`,
    refresh_token: `refresh-${userId}`,
    expires_in: 3600,
    expires_at: Math.floor(Date.now() / 1000) + 3600,
    token_type: 'bearer',
    user: {
      id: userId,
      email,
      aud: 'authenticated',
      app_metadata: {},
      user_metadata: {},
      created_at: new Date().toISOString(),
    },
  } as Session;
}
