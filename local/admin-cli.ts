import { readConfig } from './config.ts';
import { migrate } from './db/migrate.ts';
import { openLocalDatabase } from './db/open-local-database.ts';

/**
 * `npm run admin -- grant|revoke <email>`: the server-side admin role, granted
 * or revoked by email, on DATABASE_URL or the local PGlite folder.
 */
const [action, email] = process.argv.slice(2);
if ((action !== 'grant' && action !== 'revoke') || !email) {
  console.error('Usage: npm run admin -- grant <email>\n       npm run admin -- revoke <email>');
  process.exit(2);
}
const db = await openLocalDatabase(readConfig());
try {
  await migrate(db);
  const { rows } = await db.query<{ user_id: string }>('select private.set_admin($1, $2) as user_id', [email, action === 'grant']);
  console.log(`${action === 'grant' ? 'Granted' : 'Revoked'} admin ${action === 'grant' ? 'to' : 'from'} ${email} (user ${rows[0]!.user_id}).`);
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
} finally {
  await db.close();
}
