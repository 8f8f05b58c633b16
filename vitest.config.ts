import { configDefaults, defineConfig } from 'vitest/config';

/** They kill stack processes and restart PostgreSQL, so they run alone, after every other test. */
const ROBUSTNESS_TESTS = 'tests/local/robustness*.test.ts';

export default defineConfig({
  test: {
    pool: 'forks',
    // Two files at a time: vitest's default (cores minus one) is one on a 2-core machine, where much of a file's time is
    // spent waiting on a database, a child process or a timer (docs/decisions/0063).
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // bcrypt's lowest cost: the auth tests hash and check thousands of passwords (production refuses less than 10).
    env: { AUTH_PASSWORD_HASH_COST: '4' },
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
          exclude: [...configDefaults.exclude, ROBUSTNESS_TESTS],
          globalSetup: ['tests/sql/global-setup.ts'],
          setupFiles: ['tests/features/support/setup.ts'],
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'robustness',
          include: [ROBUSTNESS_TESTS],
          fileParallelism: false,
          testTimeout: 60_000,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
