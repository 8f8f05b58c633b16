/**
 * The local stack under attack, as a process of its own: the same startLocalStack
 * as `npm start` (settings from the environment), the demo accounts and a small
 * demo library (ATTACK_ADS ads, default 120), no SPA build. Prints its URL once it
 * serves and stops on SIGTERM.
 */
import { seedDemoAccounts } from '../local/seed/demo-accounts.ts';
import { seedDemo } from '../local/seed/seed-demo.ts';
import { startLocalStack } from '../local/stack.ts';

export const ATTACK_READY_PREFIX = 'Attack target ready at ';

try {
  const stack = await startLocalStack({ log: (line) => console.log(line) });
  await seedDemoAccounts(stack.db);
  await seedDemo({ db: stack.db, writeObject: stack.storage.writeObject, adCount: Number(process.env.ATTACK_ADS ?? 120) });
  console.log(`${ATTACK_READY_PREFIX}${stack.url}`);
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
