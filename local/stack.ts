import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiKeys } from './auth/jwt.ts';
import { readConfig, type LocalConfig } from './config.ts';
import type { Database } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { openLocalDatabase } from './db/open-local-database.ts';
import type { ApiHandler } from './http/api-handler.ts';
import { createHostAllowList, refuseUpgrade } from './http/allowed-hosts.ts';
import { parseTrustedProxies } from './http/client-address.ts';
import { createGateway } from './http/gateway.ts';
import { answerClientErrors, keepConnectionsAlive, nodeListener, serverOptions } from './http/node-adapter.ts';
import { requestLimitsOf } from './http/request-limits.ts';
import { createSecurityHeaders } from './http/security-headers.ts';
import { createSpaHandler } from './http/static-files.ts';
import { createMailboxPage } from './mail/mailbox-page.ts';
import { createMailer, mailerOptionsFromConfig, type Mailer } from './mail/mailer.ts';
import { createAuthApi } from './auth/auth-api.ts';
import { createFunctionsApi, type FunctionsApi } from './functions/functions-api.ts';
import { startDailyTagging } from './jobs/daily-tagging.ts';
import { createRealtimeServer } from './realtime/realtime-server.ts';
import { createRestApi } from './rest/rest-api.ts';
import { writeImageLinkSecret } from './storage/image-link-secret.ts';
import { createStorageApi, type StorageApi } from './storage/storage-api.ts';
import { createStripeEndpoint } from './stripe/stripe-endpoint.ts';

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface LocalStack {
  url: string;
  config: LocalConfig;
  db: Database;
  mailer: Mailer;
  storage: StorageApi;
  functions: FunctionsApi;
  handler: ApiHandler;
  close(): Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string | undefined>;
  /** Use this database instead of opening DATABASE_URL or the PGlite folder (tests). */
  db?: Database;
  /** Port 0 picks a free one. */
  port?: number;
  distDir?: string;
  /** Compress the SPA's built files as the stack starts (npm start, the page benchmarks), not on their first request. */
  precompressSpa?: boolean;
  log?: (line: string) => void;
  /** The clock Storage checks signed URLs against (tests move it). */
  clock?: () => number;
  /**
   * Run the daily Black Friday tagging at 00:05 UTC, as pg_cron does on hosted
   * Supabase: `npm start` turns it on. Off for every other caller (tests,
   * benchmarks): at 00:05 it would tag the ads a test inserted the evening
   * before, under the test's feet.
   */
  dailyTagging?: boolean;
}

/** Resolves the settings, including the API keys derived from the JWT secret and the site URL. */
export async function resolveConfig(env: Record<string, string | undefined> = process.env, port?: number): Promise<LocalConfig> {
  const base = readConfig({ ...env, ...(port !== undefined ? { PORT: String(port) } : {}) });
  const keys = await apiKeys(base.JWT_SECRET);
  return { ...base, siteUrl: base.SITE_URL ?? `http://localhost:${base.PORT}`, ...keys };
}

/**
 * Opens the database, applies the migrations, wires every local API behind one
 * gateway and listens. The storage worker removes the files of deleted rows.
 */
export async function startLocalStack(options: StartOptions = {}): Promise<LocalStack> {
  const log = options.log ?? (() => {});
  let config = await resolveConfig(options.env ?? process.env, options.port);
  const db = options.db ?? (await openLocalDatabase(config));
  const ownsDb = !options.db;
  try {
    const migrated = await migrate(db);
    if (migrated.applied.length > 0) log(`Applied ${migrated.applied.length} migration(s).`);
    await writeImageLinkSecret(db, config.JWT_SECRET);

    const limits = requestLimitsOf(config);
    const server: Server = createServer(serverOptions(limits));
    keepConnectionsAlive(server);
    answerClientErrors(server, limits);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.PORT, config.HOST, () => resolve());
    });
    const port = (server.address() as AddressInfo).port;
    if (port !== config.PORT) config = { ...config, PORT: port, siteUrl: config.SITE_URL ?? `http://localhost:${port}` };
    const url = `http://localhost:${port}`;

    const mailer = await createMailer(mailerOptionsFromConfig(config));
    const storage = await createStorageApi({ db, config, now: options.clock });
    const swept = await storage.sweep();
    if (swept > 0) log(`Removed ${swept} stored file(s) that no object pointed at.`);
    await storage.drainDeletions();

    const functions = await createFunctionsApi({ db, config, projectRoot, stackUrl: url });
    // The functions reach it on the stack's own address (their SUPABASE_URL) when STRIPE_SECRET_KEY is unset.
    // Development only: production mode has real Stripe keys and none of the local pages.
    const development = config.OBYECT_MODE === 'development';
    const stripe = development ? await createStripeEndpoint({ db, env: options.env ?? process.env, stackUrl: url, log }) : null;
    const rest = createRestApi({ db, config });
    const auth = createAuthApi({ db, config, mailer });
    const trustedProxies = parseTrustedProxies(config.TRUSTED_PROXIES);
    const hosts = createHostAllowList(config, trustedProxies);
    const handler = createGateway({
      hosts,
      headers: createSecurityHeaders({ ...config, supabaseUrl: (options.env ?? process.env).VITE_SUPABASE_URL }),
      apis: {
        '/rest/v1/': rest,
        '/auth/v1/': auth,
        '/storage/v1/': storage.handler,
        '/functions/v1/': functions.handler,
      },
      devPages: {
        '/_mailbox': development && mailer.delivery === 'mailbox' ? createMailboxPage(mailer) : null,
        '/_stripe': stripe?.handler ?? null,
        '/v1': stripe?.handler ?? null,
      },
      fallback: createSpaHandler(options.distDir ?? path.join(projectRoot, 'dist'), { precompress: options.precompressSpa ?? false }),
    });
    server.on('request', nodeListener(handler, () => url, limits, trustedProxies));
    const realtime = await createRealtimeServer({ db, config }, trustedProxies);
    server.on('upgrade', (request, socket, head) => {
      if (!hosts.allowsUpgrade(request)) return refuseUpgrade(socket);
      if (!realtime.handleUpgrade(request, socket, head)) socket.destroy();
    });

    const worker = setInterval(() => {
      storage.drainDeletions().catch((error: unknown) => log(`Storage worker: ${(error as Error).message}`));
    }, 5_000);
    worker.unref();
    const dailyTagging = options.dailyTagging ? startDailyTagging(db, log) : null;

    return {
      url,
      config,
      db,
      mailer,
      storage,
      functions,
      handler,
      async close() {
        clearInterval(worker);
        dailyTagging?.stop();
        await realtime.close();
        await stripe?.close();
        await functions.close();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await closed;
        await mailer.close();
        if (ownsDb) await db.close();
      },
    };
  } catch (error) {
    if (ownsDb) await db.close();
    throw error;
  }
}
