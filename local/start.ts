import { buildSpa, spaNeedsBuild } from './spa-build.ts';
import { DEMO_ACCOUNTS, seedDemoAccounts } from './seed/demo-accounts.ts';
import { seedDemo } from './seed/seed-demo.ts';
import { MigrationHistoryError } from './db/migrate.ts';
import { projectRoot, startLocalStack } from './stack.ts';

/** `npm start`: the whole product on one port, with demo content on first start. */
const started = Date.now();
const log = (line: string) => console.log(line);

if (await spaNeedsBuild(projectRoot)) {
  log('Building the app…');
  await buildSpa(projectRoot);
}

const stack = await startLocalStack({ log, precompressSpa: true, dailyTagging: true }).catch((error: unknown) => {
  // A database the migrations cannot continue (one made before they were squashed): say what to do, not a stack trace.
  if (!(error instanceof MigrationHistoryError)) throw error;
  console.error(`\n${error.message}\n(database: ${process.env.DATABASE_URL ? 'DATABASE_URL' : `PGlite in ${process.env.DATA_DIR ?? '.data'}`})`);
  process.exit(1);
});
const shutdown = async () => {
  await stack.close();
  process.exit(0);
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);

// Production has no demo accounts (their passwords are printed below) and no demo library.
const production = stack.config.OBYECT_MODE === 'production';
// Without STRIPE_SECRET_KEY the local Stripe endpoint serves billing, and the demo subscriber is its customer.
const localStripe = !process.env.STRIPE_SECRET_KEY;
if (!production) await seedDemoAccounts(stack.db, localStripe ? { stripe: { handler: stack.handler, url: stack.url, annualPrice: process.env.STRIPE_PRICE_ANNUAL || undefined } } : {});
const empty = !production && (await stack.db.query<{ n: number }>('select count(*)::int as n from public.brands')).rows[0]!.n === 0;
if (empty) {
  log('First start: rendering the demo library…');
  let reported = 0;
  const demo = await seedDemo({
    db: stack.db,
    writeObject: stack.storage.writeObject,
    onProgress: (done, total) => {
      if (done - reported >= 160 || done === total) {
        reported = done;
        log(`  ${done}/${total} ads`);
      }
    },
  });
  log(`Demo library ready: ${demo.ads} ads (${demo.blackFriday} Black Friday, ${demo.topPicks} Top Picks) from ${demo.brands} brands in ${demo.seconds.toFixed(1)} s.`);
}

log('');
log(`Obyect is running at ${stack.url} (ready in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
if (production) {
  log(`  production mode: public at ${stack.config.siteUrl}; no mailbox, no local Stripe, no demo accounts`);
  log('  make an account admin with: npm run admin -- grant <email>');
} else {
  log(`  database: ${stack.config.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${stack.config.DATA_DIR}`}`);
  log(`  emails:   ${stack.mailer.delivery === 'smtp' ? 'sent over SMTP' : `${stack.url}/_mailbox`}`);
  log('  demo accounts:');
  for (const account of DEMO_ACCOUNTS) log(`    ${account.role.padEnd(10)} ${account.email.padEnd(26)} password: ${account.password}`);
}
