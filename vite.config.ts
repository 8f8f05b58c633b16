import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { ocrFilesPlugin } from './local/vite-ocr-files.ts';

export default defineConfig({
  plugins: [react(), tailwindcss(), ocrFilesPlugin()],
  build: {
    target: 'es2022',
    // No source maps in the build: they would publish the app's sources (the stack refuses *.map too).
    sourcemap: false,
  },
  server: {
    host: '127.0.0.1',
  },
});
