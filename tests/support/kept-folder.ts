import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';

/** The project's .tmp, which git ignores: what the test runs keep between runs. */
export const KEPT_ROOT = path.resolve(import.meta.dirname, '../../.tmp');

/**
 * The folder .tmp/<name>, made by `build` the first time it is asked for and
 * kept. `build` fills a folder of its own, which is then renamed into place
 * whole, so a run never sees half of one; when two runs build it at once,
 * either copy is the same and the other is dropped.
 */
export async function keptFolder(name: string, build: (folder: string) => Promise<void>): Promise<string> {
  const target = path.join(KEPT_ROOT, name);
  if (await stat(target).then(() => true, () => false)) return target;
  const partial = `${target}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await mkdir(partial, { recursive: true });
  try {
    await build(partial);
    await rename(partial, target).catch(() => {});
  } finally {
    await rm(partial, { recursive: true, force: true });
  }
  return target;
}
