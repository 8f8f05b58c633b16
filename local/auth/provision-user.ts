import type { Queryable } from '../db/database.ts';
import { hashPassword } from './passwords.ts';
import { insertEmailUser } from './signup.ts';
import { findUserByEmail, normalizeEmail } from './users.ts';

/**
 * A confirmed email-and-password user, created if missing (demo accounts and
 * server-side tools; people sign up through auth/v1). Returns the user's id.
 */
export async function provisionUser(
  q: Queryable,
  user: { email: string; password: string; metadata?: Record<string, unknown> },
): Promise<{ id: string; created: boolean }> {
  const email = normalizeEmail(user.email);
  const existing = await findUserByEmail(q, email);
  if (existing) return { id: existing.id, created: false };
  const id = await insertEmailUser(q, { email, passwordHash: await hashPassword(user.password), metadata: user.metadata ?? {} });
  await q.query('update auth.users set email_confirmed_at = now() where id = $1', [id]);
  await q.query(
    `update auth.identities set identity_data = identity_data || '{"email_verified": true}'::jsonb where user_id = $1 and provider = 'email'`,
    [id],
  );
  return { id, created: true };
}
