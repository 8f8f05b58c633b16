/**
 * The local stack as the process bench:stack loads: the same startLocalStack
 * as `npm start` (settings from the environment), without building the SPA or
 * seeding demo content, which the listing does not need. Prints its URL once it
 * serves and stops cleanly on SIGTERM (so --cpu-prof can write its profile).
 */
import { startLocalStack } from '../local/stack.ts';

const stack = await startLocalStack({ log: (line) => console.log(line) });
console.log(`Obyect is running at ${stack.url}`);
process.once('SIGTERM', () => {
  stack.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(`Stopping failed: ${(error as Error).message}`);
      process.exit(1);
    },
  );
});
