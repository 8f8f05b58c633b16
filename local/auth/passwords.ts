import bcrypt from 'bcryptjs';
import { passwordHashCost } from '../config.ts';
import { AuthApiError, unprocessable } from './auth-errors.ts';

const BCRYPT_COST = passwordHashCost();
// bcrypt reads only the first 72 bytes; a longer password would be silently cut.
const BCRYPT_MAX_BYTES = 72;
// Compared against when there is no user, so that unknown emails take as long as wrong passwords.
const UNKNOWN_USER_HASH = bcrypt.hashSync('no user has this password', BCRYPT_COST);

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, BCRYPT_COST);
}

export async function passwordMatches(password: string, hash: string | null | undefined): Promise<boolean> {
  if (!hash || !hash.startsWith('$2')) {
    await bcrypt.compare(password, UNKNOWN_USER_HASH);
    return false;
  }
  return bcrypt.compare(password, hash);
}

/** Throws Supabase Auth's weak_password error (422 with its reasons) for a password that is too short. */
export function assertAcceptablePassword(password: string, minLength: number): void {
  if (Buffer.byteLength(password, 'utf8') > BCRYPT_MAX_BYTES) {
    throw unprocessable('validation_failed', `Password cannot be longer than ${BCRYPT_MAX_BYTES} characters`);
  }
  if ([...password].length < minLength) {
    throw new AuthApiError(422, 'weak_password', `Password should be at least ${minLength} characters.`, {
      weak_password: { reasons: ['length'] },
    });
  }
}
