import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export class ObjectTooLargeError extends Error {}

/**
 * The files behind storage.objects. A file is named by its object version,
 * never by the object's name: a write goes to a temporary file, then becomes a
 * new version file, and the row points at a version only once committed. A
 * crash leaves at most an unreferenced file, which sweep() removes; never a
 * row without its file or a half-written file under a row.
 */
export class ObjectFiles {
  readonly root: string;
  readonly tmpDir: string;

  constructor(dataDir: string) {
    this.root = path.resolve(dataDir, 'storage');
    this.tmpDir = path.join(this.root, '.tmp');
  }

  async init(): Promise<void> {
    await mkdir(this.tmpDir, { recursive: true });
    // Temporary files belong to uploads that did not finish.
    for (const name of await readdir(this.tmpDir)) await rm(path.join(this.tmpDir, name), { force: true });
  }

  pathOf(bucket: string, version: string): string {
    if (!/^[a-z0-9-]+$/.test(bucket) || !/^[0-9a-f-]{36}$/.test(version)) throw new Error('Invalid object file reference');
    return path.join(this.root, bucket, version);
  }

  /** Streams a body into a temporary file, stopping at maxBytes. Returns the temp path and size. */
  async receive(body: ReadableStream<Uint8Array> | Buffer, maxBytes: number): Promise<{ tmpPath: string; size: number }> {
    const tmpPath = path.join(this.tmpDir, randomUUID());
    let size = 0;
    const source = Buffer.isBuffer(body) ? Readable.from([body]) : Readable.fromWeb(body as never);
    const counter = async function* (chunks: AsyncIterable<Buffer>) {
      for await (const chunk of chunks) {
        size += chunk.length;
        if (size > maxBytes) throw new ObjectTooLargeError('The object exceeded the maximum allowed size');
        yield chunk;
      }
    };
    try {
      await pipeline(source, counter, createWriteStream(tmpPath, { flags: 'wx' }));
    } catch (error) {
      await rm(tmpPath, { force: true });
      throw error;
    }
    return { tmpPath, size };
  }

  /** Makes a received temp file the file of (bucket, version). */
  async commit(tmpPath: string, bucket: string, version: string): Promise<void> {
    const target = this.pathOf(bucket, version);
    await mkdir(path.dirname(target), { recursive: true });
    await rename(tmpPath, target);
  }

  async discard(filePath: string): Promise<void> {
    await rm(filePath, { force: true });
  }

  async remove(bucket: string, version: string): Promise<void> {
    await rm(this.pathOf(bucket, version), { force: true });
  }

  async size(bucket: string, version: string): Promise<number | null> {
    const info = await stat(this.pathOf(bucket, version)).catch(() => null);
    return info?.isFile() ? info.size : null;
  }

  read(bucket: string, version: string, range?: { start: number; end: number }): ReadableStream<Uint8Array> {
    return Readable.toWeb(createReadStream(this.pathOf(bucket, version), range)) as ReadableStream<Uint8Array>;
  }

  /** Removes version files that no row references (left by a crash between file and row). */
  async sweep(isReferenced: (bucket: string, versions: string[]) => Promise<Set<string>>, olderThanMs = 0): Promise<number> {
    let removed = 0;
    const buckets = (await readdir(this.root, { withFileTypes: true })).filter((entry) => entry.isDirectory() && entry.name !== '.tmp');
    for (const bucket of buckets) {
      const dir = path.join(this.root, bucket.name);
      const versions = (await readdir(dir)).filter((name) => /^[0-9a-f-]{36}$/.test(name));
      for (let i = 0; i < versions.length; i += 500) {
        const batch = versions.slice(i, i + 500);
        const referenced = await isReferenced(bucket.name, batch);
        for (const version of batch) {
          if (referenced.has(version)) continue;
          const info = await stat(path.join(dir, version)).catch(() => null);
          if (!info || Date.now() - info.mtimeMs < olderThanMs) continue;
          await rm(path.join(dir, version), { force: true });
          removed += 1;
        }
      }
    }
    return removed;
  }
}
