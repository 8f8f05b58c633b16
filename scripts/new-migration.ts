import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { migrationsDir } from '../local/db/migrate.ts';

/** A migration's version: the UTC time, to the second, as `supabase migration new` writes it. */
export function migrationVersion(now: Date): string {
  return now.toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

/**
 * The file `npm run db:new-migration <name>` writes: its name and its first lines. Refused for a name that is not
 * snake_case, and when a migration already in the folder is dated at or after now (a clock or a file in the future):
 * the new one would sort before it.
 */
export function newMigration(name: string, now: Date, existing: string[]): { file: string; sql: string } {
  if (!/^[a-z0-9]+(?:_[a-z0-9]+)*$/.test(name)) {
    throw new Error(`A migration's name is snake_case letters and digits (e.g. add_brand_websites), not "${name}".`);
  }
  const version = migrationVersion(now);
  const newest = existing.map((file) => file.slice(0, 14)).sort().at(-1);
  if (newest && newest >= version) {
    throw new Error(`The newest migration (${newest}) is not older than now (${version}): a new one would sort before it. Fix its date first.`);
  }
  const sql = [
    `-- ${name.replace(/_/g, ' ')}: what this changes and why, in a sentence or two.`,
    '-- The result is declared in supabase/schemas too; tests/sql/schema-drift.test.ts checks that both agree.',
    '',
  ].join('\n');
  return { file: `${version}_${name}.sql`, sql };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [name, ...rest] = process.argv.slice(2);
  if (!name || rest.length > 0) {
    console.error('Usage: npm run db:new-migration <snake_case_name>');
    process.exit(2);
  }
  try {
    const existing = (await readdir(migrationsDir)).filter((file) => file.endsWith('.sql'));
    const { file, sql } = newMigration(name, new Date(), existing);
    await writeFile(path.join(migrationsDir, file), sql, { flag: 'wx' });
    console.log(`supabase/migrations/${file}`);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
