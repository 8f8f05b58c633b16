import { spawn } from 'node:child_process';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

const SOURCES = ['src', 'public', 'index.html', 'vite.config.ts', 'package.json'];

async function newestMtime(target: string): Promise<number> {
  const info = await stat(target).catch(() => null);
  if (!info) return 0;
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of await readdir(target)) newest = Math.max(newest, await newestMtime(path.join(target, entry)));
  return newest;
}

/** True when dist/ is missing or older than any SPA source. */
export async function spaNeedsBuild(root: string): Promise<boolean> {
  const built = await stat(path.join(root, 'dist', 'index.html')).catch(() => null);
  if (!built) return true;
  let newest = 0;
  for (const source of SOURCES) newest = Math.max(newest, await newestMtime(path.join(root, source)));
  return newest > built.mtimeMs;
}

/**
 * Runs `vite build` in the project; rejects with its output when it fails.
 * Always a production build: Vite keeps an inherited NODE_ENV, and under a
 * test runner (NODE_ENV=test) it would bundle React's development build,
 * which `npm start` would then serve from dist/.
 */
export function buildSpa(root: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--mode', 'production', '--logLevel', 'warn'], {
      cwd: root,
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`vite build failed:\n${output}`))));
  });
}
