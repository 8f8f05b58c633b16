import type { Queryable } from '../db/database.ts';
import type { AuthEnvironment } from './auth-environment.ts';
import { passwordMatches } from './passwords.ts';
import { clientAddress } from './rate-limits.ts';
import type { UserRow } from './users.ts';

async function hasSessionFrom(q: Queryable, userId: string, address: string): Promise<boolean> {
  const { rows } = await q.query('select 1 from auth.sessions where user_id = $1 and ip = $2 limit 1', [userId, address]);
  return rows.length > 0;
}

/**
 * A password tried for an account, under the sign-in limits: refused with 429
 * while the account backs off (from this address, or everywhere unless it has
 * a session from here); a wrong password counts against the account and the
 * address. Unknown emails go through the same steps and the same bcrypt work,
 * so neither the answer nor its timing tells whether the account exists.
 */
export async function passwordAttempt(
  env: AuthEnvironment,
  request: Request,
  account: { key: string; user: UserRow | null },
  password: string,
): Promise<boolean> {
  const address = clientAddress(request);
  const trustedAddress =
    account.user !== null && env.limiter.accountBacksOffEverywhere(account.key) && (await hasSessionFrom(env.db, account.user.id, address));
  env.limiter.checkAccount(account.key, address, { trustedAddress });
  const matches = await passwordMatches(password, account.user?.encrypted_password);
  if (account.user && matches) {
    env.limiter.recordSuccess(account.key, address);
    return true;
  }
  const overBudget = env.limiter.addressOverFailureBudget(address);
  env.limiter.recordFailure(account.key, address);
  // Past the address's budget a wrong password says so with a 429; a right one (above) still signs in.
  if (overBudget) throw env.limiter.addressFailureBudgetError(address);
  return false;
}
