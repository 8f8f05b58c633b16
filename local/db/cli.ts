import { readConfig } from '../config.ts';
import { MigrationHistoryError, migrate, repairSquashedHistory } from './migrate.ts';
import { openLocalDatabase } from './open-local-database.ts';

/**
 * `npm run db:migrate`: applies the bootstrap and migrations to DATABASE_URL or the PGlite data folder.
 * `npm run db:migrate -- repair`: records the baseline in place of the migrations it squashed (local/db/migrate.ts).
 */
const config = readConfig();
const [command = 'migrate', ...rest] = process.argv.slice(2);
if (!['migrate', 'repair'].includes(command) || rest.length > 0) {
  console.error('Usage: npm run db:migrate [-- repair]');
  process.exit(2);
}
const db = await openLocalDatabase(config);
try {
  if (command === 'repair') {
    console.log(await repairSquashedHistory(db));
  } else {
    const result = await migrate(db);
    console.log(`Applied ${result.applied.length} migration(s), ${result.skipped} already applied.`);
    for (const name of result.applied) console.log(`  ${name}`);
  }
} catch (error) {
  if (!(error instanceof MigrationHistoryError)) throw error;
  console.error(`${error.message}\n(database: ${config.DATABASE_URL ? 'DATABASE_URL' : config.DATA_DIR})`);
  process.exitCode = 1;
} finally {
  await db.close();
}
