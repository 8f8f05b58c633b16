import type { z } from 'zod';
import type { Database } from '../db/database.ts';
import type { Mailer } from '../mail/mailer.ts';
import { jsonNestingExceeds, jsonTooDeepMessage, RequestBodyTooLargeError } from '../http/json-body.ts';
import { AuthApiError, badRequest } from './auth-errors.ts';
import { lookalikeEmailProblem } from './lookalike-emails.ts';
import type { AuthSettings } from './auth-settings.ts';
import type { RateLimiter } from './rate-limits.ts';

/** What every endpoint of the local auth works with. */
export interface AuthEnvironment {
  db: Database;
  settings: AuthSettings;
  mailer: Mailer;
  limiter: RateLimiter;
  fetch: typeof fetch;
}

export type AuthEndpoint = (env: AuthEnvironment, request: Request) => Promise<Response>;

/** The JSON body checked against its schema; an empty body reads as {}. */
export async function readBody<T>(request: Request, schema: z.ZodType<T>): Promise<T> {
  let text: string;
  try {
    text = await request.text();
  } catch (error) {
    // The node adapter cuts a body off at MAX_REQUEST_BODY_BYTES (and answers 413 itself).
    if (error instanceof RequestBodyTooLargeError) throw new AuthApiError(413, 'validation_failed', error.message);
    throw error;
  }
  let json: unknown = {};
  if (text.trim() !== '') {
    if (jsonNestingExceeds(text)) throw badRequest('bad_json', jsonTooDeepMessage());
    try {
      json = JSON.parse(text);
    } catch {
      throw badRequest('bad_json', 'Could not parse request body as JSON');
    }
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw badRequest('bad_json', 'The request body must be a JSON object');
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    throw badRequest('validation_failed', `${where}${issue.message}`);
  }
  return parsed.data;
}

const EMAIL_PATTERN = /^[^\s@"<>(),;:\\[\]]+@[^\s@"<>(),;:\\[\]]+\.[^\s@"<>(),;:\\[\]]+$/;

/**
 * A valid email address in lower case, or Supabase Auth's validation error; a
 * look-alike address (mixed alphabets, invisible characters) is refused with
 * email_address_invalid.
 */
export function validEmail(input: string): string {
  const email = input.trim().toLowerCase();
  if (email.length > 255 || !EMAIL_PATTERN.test(email)) {
    throw badRequest('validation_failed', 'Unable to validate email address: invalid format');
  }
  const lookalike = lookalikeEmailProblem(email);
  if (lookalike) throw badRequest('email_address_invalid', `This email address could pass for another one: ${lookalike}.`);
  return email;
}

/** PostgreSQL's unique_violation, for races two requests can lose (two sign-ups of one address). */
export const isUniqueViolation = (error: unknown) => (error as { code?: string } | null)?.code === '23505';

export function internalError(message: string, cause?: unknown): AuthApiError {
  if (cause) console.error(`auth: ${message}:`, cause);
  return new AuthApiError(500, 'unexpected_failure', message);
}
