// The migrations need cube, pg_trgm and pgcrypto; a PostgreSQL without them (no contrib modules) fails here with a
// clear message. They also give the search's words a rum index where the rum extension exists (hosted Supabase has
// it; docs/decisions/0071), so the SQL tests run the listing on both: PostgreSQL with rum, PGlite without. A local
// Debian server without it gets Debian's postgresql-<major>-rum package (scripts/apt-install.sh).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const required = ['cube', 'pg_trgm', 'pgcrypto'];

const client = new pg.Client({ connectionString: url });
try {
  await client.connect();
} catch (error) {
  if (process.env.CI) {
    console.error(`error: CI requires PostgreSQL at ${url} (set TEST_DATABASE_URL): ${error.message}`);
    process.exit(1);
  }
  console.warn(`PostgreSQL is not reachable at ${url}: the tests run on PGlite only.`);
  process.exit(0);
}

/** The extensions of `names` the server can create. */
async function available(names) {
  const { rows } = await client.query('select name from pg_available_extensions where name = any($1::text[])', [names]);
  return new Set(rows.map((row) => row.name));
}

/** Installs Debian's rum package for the server's major version (scripts/apt-install.sh): null when done, else why not. */
function installRum(major) {
  const host = new URL(url).hostname;
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host)) return `the server at ${host} is not this machine`;
  const pkg = `postgresql-${major}-rum`;
  console.log(`The rum extension is missing: installing Debian's ${pkg}…`);
  try {
    execFileSync('bash', [fileURLToPath(new URL('apt-install.sh', import.meta.url)), pkg], { stdio: ['ignore', 'ignore', 'pipe'] });
    return null;
  } catch (error) {
    return String(error.stderr ?? error.message).trim().split('\n').at(-1);
  }
}

try {
  const { rows: [version] } = await client.query("select current_setting('server_version_num')::int / 10000 as major");
  const present = await available(required);
  const missing = required.filter((name) => !present.has(name));
  if (missing.length > 0) {
    console.error(
      `error: PostgreSQL at ${url} lacks the extension(s) ${missing.join(', ')} that the migrations create. ` +
        `Install its contrib modules (Debian: apt-get install -y postgresql-contrib or postgresql-${version.major}), then run the tests again.`,
    );
    process.exit(1);
  }
  console.log(`PostgreSQL at ${url} has ${required.slice(0, -1).join(', ')} and ${required.at(-1)}.`);

  if (!(await available(['rum'])).has('rum')) {
    const refused = installRum(version.major);
    if (refused !== null || !(await available(['rum'])).has('rum')) {
      const why = refused ?? `postgresql-${version.major}-rum is installed, but the server does not list rum`;
      const message = `PostgreSQL at ${url} lacks the rum extension (${why}), so the search's rum index is not tested.`;
      if (process.env.CI) {
        console.error(`error: ${message} Install it (Debian: apt-get install -y postgresql-${version.major}-rum), then run the tests again.`);
        process.exit(1);
      }
      console.warn(message);
      process.exit(0);
    }
  }
  console.log('It has rum: there the search reads its words from a rum index (PGlite, from the GIN index).');
} finally {
  await client.end();
}
