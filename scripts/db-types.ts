import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { databaseTypes } from '../local/db/database-types.ts';
import { migrate } from '../local/db/migrate.ts';
import { openPglite } from '../local/db/pglite.ts';

/** `npm run db:types`: src/lib/database.types.ts from a database the migrations build (PGlite in memory). */
export const databaseTypesFile = path.resolve(import.meta.dirname, '../src/lib/database.types.ts');

const db = await openPglite();
try {
  await migrate(db);
  await writeFile(databaseTypesFile, await databaseTypes(db));
  console.log(path.relative(process.cwd(), databaseTypesFile));
} finally {
  await db.close();
}
