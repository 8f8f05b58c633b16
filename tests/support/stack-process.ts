import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { apiKeys } from '../../local/auth/jwt.ts';
import { LOCAL_JWT_SECRET } from '../../local/config.ts';

/** The line stack-process-entry.ts prints once the stack serves. */
export const READY_PREFIX = 'Local stack ready at ';

const entry = path.join(path.dirname(fileURLToPath(import.meta.url)), 'stack-process-entry.ts');
const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface StackProcess {
  readonly pid: number;
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** Resolves with the exit code (or the signal's name) once the process has ended. */
  readonly exited: Promise<number | string>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | string>;
  /** SIGKILL to the stack's own process only, as a crash would end it. */
  crash(): Promise<number | string>;
  /** Ends whatever is left of the process and its children (its process group). */
  reap(): void;
}

export interface StackProcessOptions {
  /** DATA_DIR, PORT and any other setting; DATABASE_URL only when given. */
  env: Record<string, string>;
  /** How long to wait for the ready line. */
  timeoutMs?: number;
}

/** The settings of the test runner that must not leak into a stack under test. */
const STACK_SETTINGS = ['DATABASE_URL', 'DATA_DIR', 'PORT', 'HOST', 'SITE_URL', 'SMTP_URL', 'JWT_SECRET', 'JWT_EXPIRY'];

function processEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const name of STACK_SETTINGS) delete base[name];
  return { ...base, ...env };
}

/**
 * Runs a command in a process group of its own (so that reap() also ends the
 * edge functions runtime the stack starts) and collects its output.
 */
function launch(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: projectRoot,
    env: processEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });
  return { child, exited, output: () => output };
}

function reapGroup(child: ChildProcess) {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // The group is already gone.
  }
}

/** Starts the stack as a child process and waits until it serves. */
export async function startStackProcess(options: StackProcessOptions): Promise<StackProcess> {
  const { child, exited, output } = launch([entry], options.env);
  const timeoutMs = options.timeoutMs ?? 60_000;
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      reapGroup(child);
      reject(new Error(`The stack did not start within ${timeoutMs} ms:\n${output()}`));
    }, timeoutMs);
    const onData = () => {
      const line = output()
        .split('\n')
        .find((candidate) => candidate.startsWith(READY_PREFIX));
      if (!line) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      resolve(line.slice(READY_PREFIX.length).trim());
    };
    child.stdout!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reapGroup(child);
      reject(new Error(`The stack exited (${code}) before it served:\n${output()}`));
    });
  });
  return {
    pid: child.pid!,
    url,
    child,
    output,
    exited,
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
    async crash() {
      child.kill('SIGKILL');
      return exited;
    },
    reap: () => reapGroup(child),
  };
}

/** Starts the stack as a child process that is expected to refuse to start: its exit code and output. */
export async function runStackProcessToExit(options: StackProcessOptions): Promise<{ code: number | string; output: string }> {
  const { child, exited, output } = launch([entry], options.env);
  const timeoutMs = options.timeoutMs ?? 60_000;
  const timer = setTimeout(() => reapGroup(child), timeoutMs);
  const code = await exited;
  clearTimeout(timer);
  reapGroup(child);
  return { code, output: output() };
}

/** The anon and service role keys of a stack on the default JWT secret. */
export const stackKeys = () => apiKeys(LOCAL_JWT_SECRET);

/** Headers that make a request as the service role of a stack on the default JWT secret. */
export async function serviceRoleHeaders(): Promise<Record<string, string>> {
  const { serviceRoleKey } = await stackKeys();
  return { apikey: serviceRoleKey, authorization: `Bearer ${serviceRoleKey}` };
}

/** The official client of a stack process on the default JWT secret, as the service role or anonymous. */
export async function stackClient(url: string, role: 'service_role' | 'anon'): Promise<SupabaseClient> {
  const keys = await stackKeys();
  return createClient(url, role === 'service_role' ? keys.serviceRoleKey : keys.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    // Node 20 has no global WebSocket.
    realtime: { transport: WebSocket as never },
  });
}
