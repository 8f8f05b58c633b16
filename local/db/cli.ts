import { readConfig } from '../config.ts';
import { migrate } from './migrate.ts';
import { openLocalDatabase } from './open-local-database.ts';

/** `npm run db:migrate`: applies the bootstrap and migrations to DATABASE_URL or the PGlite data folder. */
const config = readConfig();
const [command] = process.argv.slice(2);
if (command !== 'migrate') {
  console.error('Usage: tsx local/db/cli.ts migrate');
  process.exit(2);
}
const db = await openLocalDatabase(config);
try {
  const result = await migrate(db);
  console.log(`Applied ${result.applied.length} migration(s), ${result.skipped} already applied.`);
  for (const name of result.applied) console.log(`  ${name}`);
} finally {
  await db.close();
}
