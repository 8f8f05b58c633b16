import type { Database } from '../db/database.ts';

/**
 * The database signs the ad image links it hands out (private.signed_object_url)
 * with private.settings 'image_link_secret'; Storage checks them with its JWT
 * secret. The local stack's Storage is this process, so the secret is its own
 * JWT secret, written here at every start (a hosted project sets its legacy JWT
 * secret once, see the README).
 */
export async function writeImageLinkSecret(db: Database, jwtSecret: string): Promise<void> {
  await db.query(
    `insert into private.settings (key, value) values ('image_link_secret', $1)
     on conflict (key) do update set value = excluded.value where private.settings.value is distinct from excluded.value`,
    [jwtSecret],
  );
}
