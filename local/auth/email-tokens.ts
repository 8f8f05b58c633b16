import { createHmac, randomInt } from 'node:crypto';
import type { Queryable } from '../db/database.ts';

/** The kinds of email link Supabase Auth sends, as they appear in /verify?type=. */
export type EmailLinkType = 'signup' | 'invite' | 'recovery' | 'magiclink' | 'email_change';
export const EMAIL_LINK_TYPES: readonly EmailLinkType[] = ['signup', 'invite', 'recovery', 'magiclink', 'email_change'];

type TokenType = 'confirmation_token' | 'recovery_token' | 'email_change_token_new';

const TOKEN_TYPE: Record<EmailLinkType, TokenType> = {
  signup: 'confirmation_token',
  invite: 'confirmation_token',
  recovery: 'recovery_token',
  magiclink: 'recovery_token',
  email_change: 'email_change_token_new',
};

// The auth.users columns that mirror each live token, as Supabase Auth keeps them.
const USER_COLUMNS: Record<TokenType, { token: string; sentAt: string }> = {
  confirmation_token: { token: 'confirmation_token', sentAt: 'confirmation_sent_at' },
  recovery_token: { token: 'recovery_token', sentAt: 'recovery_sent_at' },
  email_change_token_new: { token: 'email_change_token_new', sentAt: 'email_change_sent_at' },
};

/** PKCE email links carry this prefix, so /verify answers them with ?code= instead of a session. */
export const PKCE_TOKEN_PREFIX = 'pkce_';

/**
 * The link token for an email and its six-digit code, so that either the link
 * or the code verifies. Keyed with the server's secret: knowing the address
 * does not let anyone work out the million possible links offline.
 */
export const emailTokenHash = (secret: string, email: string, otp: string) =>
  createHmac('sha224', secret).update(`${email.trim().toLowerCase()}${otp}`).digest('hex');

export interface IssuedEmailToken {
  /** The six-digit code for verifyOtp({ email, token, type }). */
  otp: string;
  /** The token of the link, /verify?token=. */
  linkToken: string;
}

/** Replaces the user's live token of this kind (older links stop working) and records it on the user. */
export async function issueEmailToken(
  q: Queryable,
  userId: string,
  type: EmailLinkType,
  email: string,
  options: { pkce: boolean; secret: string },
): Promise<IssuedEmailToken> {
  const otp = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const linkToken = `${options.pkce ? PKCE_TOKEN_PREFIX : ''}${emailTokenHash(options.secret, email, otp)}`;
  const tokenType = TOKEN_TYPE[type];
  await q.query(
    `insert into auth.one_time_tokens (user_id, token_type, token_hash, relates_to) values ($1, $2, $3, $4)
     on conflict (user_id, token_type)
     do update set token_hash = excluded.token_hash, relates_to = excluded.relates_to, created_at = now(), updated_at = now()`,
    [userId, tokenType, linkToken, email.trim().toLowerCase()],
  );
  const columns = USER_COLUMNS[tokenType];
  await q.query(`update auth.users set ${columns.token} = $2, ${columns.sentAt} = now(), updated_at = now() where id = $1`, [
    userId,
    linkToken,
  ]);
  return { otp, linkToken };
}

export interface EmailTokenRow {
  user_id: string;
  token_type: TokenType;
  token_hash: string;
  relates_to: string;
  expired: boolean;
}

/** The live token for a link of this type, locked until the transaction ends. */
export async function findEmailToken(
  q: Queryable,
  types: readonly EmailLinkType[],
  tokenHashes: readonly string[],
  expirySeconds: number,
): Promise<EmailTokenRow | null> {
  const tokenTypes = [...new Set(types.map((type) => TOKEN_TYPE[type]))];
  const { rows } = await q.query<EmailTokenRow>(
    `select user_id, token_type, token_hash, relates_to, created_at + make_interval(secs => $3) < now() as expired
       from auth.one_time_tokens
      where token_hash = any($1::text[]) and token_type = any($2::text[])
      order by created_at desc
      limit 1
      for update`,
    [tokenHashes, tokenTypes, expirySeconds],
  );
  return rows[0] ?? null;
}

/** Uses up a token: a link works once. */
export async function consumeEmailToken(q: Queryable, token: EmailTokenRow): Promise<void> {
  await q.query('delete from auth.one_time_tokens where user_id = $1 and token_type = $2', [token.user_id, token.token_type]);
  const columns = USER_COLUMNS[token.token_type];
  await q.query(`update auth.users set ${columns.token} = '' where id = $1`, [token.user_id]);
}

/** Ends every live link of a user (after a password change nobody should sign in with an old link). */
export async function revokeEmailTokens(q: Queryable, userId: string, types: readonly EmailLinkType[]): Promise<void> {
  const tokenTypes = [...new Set(types.map((type) => TOKEN_TYPE[type]))];
  await q.query('delete from auth.one_time_tokens where user_id = $1 and token_type = any($2::text[])', [userId, tokenTypes]);
  for (const tokenType of tokenTypes) {
    await q.query(`update auth.users set ${USER_COLUMNS[tokenType].token} = '' where id = $1`, [userId]);
  }
}
