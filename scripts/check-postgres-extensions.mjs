// The migrations need cube, pg_trgm and pgcrypto; a PostgreSQL without them (no contrib modules) fails here with a clear message.
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
try {
  const { rows } = await client.query('select name from pg_available_extensions where name = any($1::text[])', [required]);
  const missing = required.filter((name) => !rows.some((row) => row.name === name));
  if (missing.length > 0) {
    const { rows: version } = await client.query("select current_setting('server_version_num')::int / 10000 as major");
    console.error(
      `error: PostgreSQL at ${url} lacks the extension(s) ${missing.join(', ')} that the migrations create. ` +
        `Install its contrib modules (Debian: apt-get install -y postgresql-contrib or postgresql-${version[0].major}), then run the tests again.`,
    );
    process.exit(1);
  }
  console.log(`PostgreSQL at ${url} has ${required.slice(0, -1).join(', ')} and ${required.at(-1)}.`);
} finally {
  await client.end();
}
