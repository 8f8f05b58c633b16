import { defineConfig } from 'vitest/config';

/**
 * The journeys: Debian's Chromium against the local stack, one file at a time.
 * Two at a time took each file 1.7 to 2.2 times as long on two cores (both
 * busy: a file's stack and its Chromium use about one each) and timed out
 * journeys; see docs/decisions/0063.
 */
export default defineConfig({
  test: {
    name: 'e2e',
    root: new URL('..', import.meta.url).pathname,
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['e2e/global-setup.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 60_000,
    // A journey that fails is run once more, in a fresh browser, and reported
    // as retried: two cores running a browser, a stack and its database now and
    // then miss a frame a journey waits for (docs/decisions/0030).
    retry: 1,
    hookTimeout: 180_000,
    teardownTimeout: 60_000,
    reporters: ['default'],
  },
});
