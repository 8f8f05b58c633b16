import { defineConfig } from 'vitest/config';

/**
 * The journeys: Debian's Chromium against the local stack, two files at a
 * time, each file with a stack and a Chromium of its own. A journey file now
 * keeps about half a core busy (it waits on its page far more than it
 * computes), so two at a time fill the two cores; see docs/decisions/0069.
 */
export default defineConfig({
  test: {
    name: 'e2e',
    root: new URL('..', import.meta.url).pathname,
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['e2e/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    // bcrypt's lowest cost for the stacks' passwords (local/config.ts).
    env: { AUTH_PASSWORD_HASH_COST: '4' },
    // A journey that fails is run once more, in a fresh browser, and reported
    // as retried: two cores running a browser, a stack and its database now and
    // then miss a frame a journey waits for (docs/decisions/0030).
    retry: 1,
    hookTimeout: 180_000,
    teardownTimeout: 60_000,
    reporters: ['default'],
  },
});
