import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

const require = createRequire(import.meta.url);

/**
 * The files the admin's OCR loads (src/lib/media/read-image-text.ts), served
 * from our own origin under /ocr/: Tesseract's worker script, the LSTM builds
 * of its engine (the browser picks relaxed SIMD, SIMD or plain) and the
 * English model. `vite` serves them from node_modules; `vite build` copies
 * them into dist/ocr/, which the local stack serves like any built file.
 */
export function ocrFiles(): Record<string, string> {
  const tesseract = path.dirname(require.resolve('tesseract.js/package.json'));
  const core = path.dirname(require.resolve('tesseract.js-core/package.json'));
  const eng = path.dirname(require.resolve('@tesseract.js-data/eng/package.json'));
  return {
    'ocr/worker.min.js': path.join(tesseract, 'dist', 'worker.min.js'),
    ...Object.fromEntries(
      ['tesseract-core-relaxedsimd-lstm', 'tesseract-core-simd-lstm', 'tesseract-core-lstm'].map((name) => [`ocr/core/${name}.wasm.js`, path.join(core, `${name}.wasm.js`)]),
    ),
    'ocr/lang/eng.traineddata.gz': path.join(eng, '4.0.0_best_int', 'eng.traineddata.gz'),
  };
}

const TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.gz': 'application/gzip' };

export function ocrFilesPlugin(): Plugin {
  const files = ocrFiles();
  return {
    name: 'obyect-ocr-files',
    configureServer(server) {
      server.middlewares.use(async (request, response, next) => {
        const wanted = files[(request.url ?? '').split('?')[0]!.replace(/^\//, '')];
        if (!wanted) return next();
        const info = await stat(wanted).catch(() => null);
        if (!info) return next();
        response.setHeader('content-type', TYPES[path.extname(wanted)] ?? 'application/octet-stream');
        response.setHeader('content-length', String(info.size));
        createReadStream(wanted).pipe(response);
      });
    },
    async generateBundle() {
      for (const [fileName, source] of Object.entries(files)) this.emitFile({ type: 'asset', fileName, source: await readFile(source) });
    },
  };
}
