import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { InvalidJwtError, verifyJwt } from '../auth/jwt.ts';
import type { ApiContext, ApiHandler } from '../http/api-handler.ts';
import { tokenOf } from '../http/caller.ts';
import { jsonNestingExceeds, jsonTooDeepMessage, readBodyBytes, RequestBodyTooLargeError } from '../http/json-body.ts';
import { readFunctionsWithoutJwt } from './functions-config.ts';
import { CLIENT_IP_HEADER } from '../http/node-adapter.ts';

export interface FunctionsApi {
  handler: ApiHandler;
  /** The Deno process's id (tests kill it to check that it comes back). */
  pid(): number | undefined;
  close(): Promise<void>;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

const failure = (status: number, code: string, message: string) => Response.json({ error: { code, message } }, { status });

/**
 * functions/v1: the handlers in supabase/functions, run by Deno (from the deno
 * npm package) in one child process that is started again if it dies. Calls
 * need a valid JWT unless config.toml sets verify_jwt = false, as on hosted Supabase.
 */
export async function createFunctionsApi(ctx: ApiContext & { projectRoot: string; stackUrl: string }): Promise<FunctionsApi> {
  const functionsRoot = path.join(ctx.projectRoot, 'supabase', 'functions');
  const withoutJwt = readFunctionsWithoutJwt(path.join(ctx.projectRoot, 'supabase', 'config.toml'));
  const denoBinary = path.join(ctx.projectRoot, 'node_modules', 'deno', 'deno');
  let child: ChildProcess | null = null;
  let port = 0;
  let ready: Promise<void> = Promise.resolve();
  let closing = false;
  let restarts = 0;

  const start = () => {
    ready = (async () => {
      port = await freePort();
      const env: Record<string, string> = {
        ...(process.env as Record<string, string>),
        SUPABASE_URL: ctx.stackUrl,
        SUPABASE_ANON_KEY: ctx.config.anonKey,
        SUPABASE_SERVICE_ROLE_KEY: ctx.config.serviceRoleKey,
        ...(ctx.config.DATABASE_URL ? { SUPABASE_DB_URL: ctx.config.DATABASE_URL } : {}),
        SITE_URL: ctx.config.siteUrl,
        // In development every loopback name the stack answers to is an origin checkout may return to (the emails link
        // to 127.0.0.1, the README to localhost).
        ...(ctx.config.OBYECT_MODE === 'development' ? { ALLOWED_ORIGINS: developmentOrigins(ctx.stackUrl, process.env.ALLOWED_ORIGINS) } : {}),
        DENO_NO_UPDATE_CHECK: '1',
      };
      const started = spawn(
        denoBinary,
        ['run', '--quiet', '--config', path.join(functionsRoot, 'deno.json'), '--allow-net', '--allow-env', '--allow-read', '--allow-sys',
          path.join(ctx.projectRoot, 'local', 'functions', 'deno', 'router.ts'), String(port), functionsRoot],
        { cwd: functionsRoot, env, stdio: ['pipe', 'pipe', 'inherit'] },
      );
      child = started;
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('Deno did not start within 60 s')), 60_000);
        started.stdout!.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('functions ready')) {
            clearTimeout(timer);
            resolve();
          }
        });
        started.once('exit', (code) => {
          clearTimeout(timer);
          reject(new Error(`Deno exited with code ${code}`));
        });
      });
      started.once('exit', () => {
        if (child === started) child = null;
        if (closing) return;
        // A crashed runtime comes back; the delay grows if it keeps crashing.
        restarts += 1;
        setTimeout(start, Math.min(100 * 2 ** Math.min(restarts, 6), 5_000));
      });
      restarts = 0;
    })();
    ready.catch((error: unknown) => console.error('Edge functions runtime:', (error as Error).message));
  };
  start();

  // As hosted Supabase's edge does, the function sees its caller's address first in X-Forwarded-For (the client address
  // the stack resolved, local/http/client-address.ts), never what the client wrote there.
  const forward = (request: Request, body: Uint8Array<ArrayBuffer> | undefined, target: string) => {
    const headers = new Headers(request.headers);
    headers.set('x-forwarded-for', request.headers.get(CLIENT_IP_HEADER) ?? '127.0.0.1');
    headers.delete(CLIENT_IP_HEADER);
    return fetch(target, { method: request.method, headers, body, redirect: 'manual' });
  };

  /** The body as it will be forwarded: at most MAX_REQUEST_BODY_BYTES, and JSON within the nesting limit. */
  const checkedBody = async (request: Request): Promise<Uint8Array<ArrayBuffer> | Response | undefined> => {
    if (request.method === 'GET' || request.method === 'HEAD') return undefined;
    let body: Uint8Array<ArrayBuffer>;
    try {
      body = await readBodyBytes(request, ctx.config.MAX_REQUEST_BODY_BYTES);
    } catch (error) {
      if (error instanceof RequestBodyTooLargeError) return failure(413, 'payload_too_large', error.message);
      throw error;
    }
    const contentType = request.headers.get('content-type') ?? '';
    if (/^application\/(.+\+)?json\b/i.test(contentType) && jsonNestingExceeds(body)) return failure(400, 'bad_json', jsonTooDeepMessage());
    return body;
  };

  const handler: ApiHandler = async (request) => {
    const url = new URL(request.url);
    const rest = url.pathname.replace(/^\/functions\/v1\//, '');
    const name = rest.split('/')[0] ?? '';
    if (!withoutJwt.has(name)) {
      const token = tokenOf(request);
      if (!token) return failure(401, 'not_authenticated', 'Missing authorization header');
      try {
        await verifyJwt(token, ctx.config.JWT_SECRET);
      } catch (error) {
        return failure(401, 'invalid_jwt', error instanceof InvalidJwtError ? error.message : 'invalid JWT');
      }
    }
    const body = await checkedBody(request);
    if (body instanceof Response) return body;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      try {
        await ready;
        return await forward(request, body, `http://127.0.0.1:${port}/${rest}${url.search}`);
      } catch {
        // The runtime is restarting: wait for it, then try again.
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
    }
    return failure(503, 'functions_unavailable', 'The functions runtime is not available');
  };

  return {
    handler,
    pid: () => child?.pid,
    async close() {
      closing = true;
      const running = child;
      if (!running) return;
      await new Promise<void>((resolve) => {
        running.once('exit', () => resolve());
        running.kill('SIGTERM');
      });
    },
  };
}

/** The stack's own address under each loopback name, with any ALLOWED_ORIGINS already set. */
export function developmentOrigins(stackUrl: string, configured = ''): string {
  const { port, protocol } = new URL(stackUrl);
  const loopback = ['localhost', '127.0.0.1', '[::1]'].map((host) => `${protocol}//${host}${port ? `:${port}` : ''}`);
  return [...configured.split(',').map((origin) => origin.trim()).filter(Boolean), ...loopback].join(',');
}
