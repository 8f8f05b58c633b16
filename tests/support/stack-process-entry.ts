/**
 * The local stack as a process of its own, for tests that kill and restart it:
 * settings from the environment (PORT, DATA_DIR, DATABASE_URL), no SPA build
 * and no demo content, one line with its URL once it serves, a clean stop on SIGTERM.
 */
import { startLocalStack } from '../../local/stack.ts';
import { READY_PREFIX } from './stack-process.ts';

try {
  const stack = await startLocalStack({ log: (line) => console.log(line) });
  console.log(`${READY_PREFIX}${stack.url}`);
  process.once('SIGTERM', () => {
    stack.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`Stopping failed: ${(error as Error).message}`);
        process.exit(1);
      },
    );
  });
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
