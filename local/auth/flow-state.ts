import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../db/database.ts';
import { AuthApiError, badRequest } from './auth-errors.ts';
import type { AuthMethod } from './sessions.ts';

/** A PKCE code challenge sent by auth-js with flowType 'pkce'. */
export interface CodeChallenge {
  challenge: string;
  method: 's256' | 'plain';
}

/** The challenge from a request's code_challenge and code_challenge_method, or null for the implicit flow. */
export function codeChallengeFrom(challenge: string | null | undefined, method: string | null | undefined): CodeChallenge | null {
  if (!challenge && !method) return null;
  if (!challenge || !method) {
    throw badRequest('validation_failed', 'PKCE flow requires code_challenge_method and code_challenge');
  }
  const normalized = method.toLowerCase();
  if (normalized !== 's256' && normalized !== 'plain') {
    throw badRequest('validation_failed', `Code challenge method not supported: ${method}`);
  }
  if (challenge.length < 43 || challenge.length > 128) {
    throw badRequest('validation_failed', 'Code challenge has to be between 43 and 128 characters');
  }
  return { challenge, method: normalized };
}

export async function createFlowState(
  q: Queryable,
  flow: { userId: string | null; codeChallenge: CodeChallenge; providerType: string; authenticationMethod: AuthMethod },
): Promise<string> {
  const { rows } = await q.query<{ id: string }>(
    `insert into auth.flow_state (user_id, auth_code, code_challenge_method, code_challenge, provider_type, authentication_method)
     values ($1, $2, $3, $4, $5, $6) returning id`,
    [flow.userId, randomUUID(), flow.codeChallenge.method, flow.codeChallenge.challenge, flow.providerType, flow.authenticationMethod],
  );
  return rows[0]!.id;
}

/** Marks the user's newest flow of this kind as verified and returns its auth code (for ?code=). */
export async function issueAuthCodeForUser(q: Queryable, userId: string, method: AuthMethod): Promise<string> {
  const { rows } = await q.query<{ auth_code: string }>(
    `update auth.flow_state set auth_code_issued_at = now(), updated_at = now()
      where id = (select id from auth.flow_state where user_id = $1 and authentication_method = $2
                   order by created_at desc limit 1)
      returning auth_code`,
    [userId, method],
  );
  if (!rows[0]) throw badRequest('flow_state_not_found', 'No associated flow state found');
  return rows[0].auth_code;
}

/** Same, for a flow known by id (the OAuth flow carries it in its state). */
export async function issueAuthCodeForFlow(
  q: Queryable,
  flowStateId: string,
  userId: string,
  providerTokens: { providerToken?: string | null; providerRefreshToken?: string | null },
): Promise<string> {
  const { rows } = await q.query<{ auth_code: string }>(
    `update auth.flow_state
        set user_id = $2, provider_access_token = $3, provider_refresh_token = $4, auth_code_issued_at = now(), updated_at = now()
      where id = $1
      returning auth_code`,
    [flowStateId, userId, providerTokens.providerToken ?? null, providerTokens.providerRefreshToken ?? null],
  );
  if (!rows[0]) throw badRequest('flow_state_not_found', 'No associated flow state found');
  return rows[0].auth_code;
}

interface FlowStateRow {
  id: string;
  user_id: string | null;
  code_challenge_method: 's256' | 'plain';
  code_challenge: string;
  authentication_method: AuthMethod;
  provider_access_token: string | null;
  provider_refresh_token: string | null;
  expired: boolean;
}

const sameText = (a: string, b: string) => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

/** Checks the code verifier against the flow's challenge and uses the auth code up. */
export async function exchangeAuthCode(
  q: Queryable,
  authCode: string,
  codeVerifier: string,
  expirySeconds: number,
): Promise<FlowStateRow & { user_id: string }> {
  const { rows } = await q.query<FlowStateRow>(
    `select id, user_id, code_challenge_method, code_challenge, authentication_method, provider_access_token,
            provider_refresh_token, auth_code_issued_at + make_interval(secs => $2) < now() as expired
       from auth.flow_state
      where auth_code = $1 and auth_code_issued_at is not null
      for update`,
    [authCode, expirySeconds],
  );
  const flow = rows[0];
  if (!flow || !flow.user_id) {
    throw new AuthApiError(404, 'flow_state_not_found', 'invalid flow state, no valid flow state found');
  }
  if (flow.expired) {
    throw badRequest('flow_state_expired', 'invalid flow state, flow state has expired');
  }
  const computed =
    flow.code_challenge_method === 's256' ? createHash('sha256').update(codeVerifier).digest('base64url') : codeVerifier;
  if (!sameText(computed, flow.code_challenge)) {
    throw new AuthApiError(403, 'bad_code_verifier', 'code challenge does not match previously saved code verifier');
  }
  await q.query('delete from auth.flow_state where id = $1', [flow.id]);
  return { ...flow, user_id: flow.user_id };
}
