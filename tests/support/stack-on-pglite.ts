import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startLocalStack, type LocalStack } from '../../local/stack.ts';
import { openTestDatabase } from './engines.ts';

/** A built SPA in miniature: index.html with the boot bar's inline style, one script and the source map a build may leave. */
export const SPA_INDEX = `<!doctype html><html><head><style>.boot-shell{min-height:100dvh}</style><script type="module" src="/assets/app.js"></script></head><body><div id="root"></div></body></html>`;

export async function miniatureSpa(): Promise<{ distDir: string; remove(): Promise<void> }> {
  const distDir = await mkdtemp(path.join(os.tmpdir(), 'obyect-dist-'));
  await mkdir(path.join(distDir, 'assets'));
  await writeFile(path.join(distDir, 'index.html'), SPA_INDEX);
  await writeFile(path.join(distDir, 'assets', 'app.js'), 'console.log("app");\n//# sourceMappingURL=app.js.map\n');
  await writeFile(path.join(distDir, 'assets', 'app.js.map'), '{"version":3,"sources":["../src/main.tsx"],"sourcesContent":["secret source"]}');
  return { distDir, remove: () => rm(distDir, { recursive: true, force: true }) };
}

/** The whole stack on a fresh PGlite copy, a free port and its own data folder, serving the miniature SPA. */
export async function startStackOnPglite(env: Record<string, string> = {}): Promise<LocalStack & { stop(): Promise<void> }> {
  const db = await openTestDatabase('pglite');
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'obyect-stack-'));
  const spa = await miniatureSpa();
  const cleanup = async () => {
    await db.close();
    await rm(dataDir, { recursive: true, force: true });
    await spa.remove();
  };
  let stack: LocalStack;
  try {
    stack = await startLocalStack({ db, port: 0, distDir: spa.distDir, env: { DATA_DIR: dataDir, ...env } });
  } catch (error) {
    await cleanup();
    throw error;
  }
  return Object.assign(stack, {
    async stop() {
      try {
        await stack.close();
      } finally {
        await cleanup();
      }
    },
  });
}

/** The settings production mode needs, none of them the local defaults; SMTP and PostgreSQL are never reached by these tests. */
export const PRODUCTION_ENV = {
  OBYECT_MODE: 'production',
  SITE_URL: 'https://obyect.example',
  SMTP_URL: 'smtp://127.0.0.1:9',
  DATABASE_URL: 'postgres://obyect@127.0.0.1:9/obyect',
  JWT_SECRET: 'a-production-secret-of-at-least-thirty-two-characters',
  STRIPE_SECRET_KEY: 'sk_test_production_mode_test',
  STRIPE_WEBHOOK_SECRET: 'whsec_production_mode_test',
  STRIPE_PRICE_MONTHLY: 'price_real_monthly',
  STRIPE_PRICE_ANNUAL: 'price_real_annual',
  // The README's proxy on this machine.
  TRUSTED_PROXIES: 'loopback',
} as const;
