import * as z from 'zod/mini';
import { PASSWORD_MIN_LENGTH } from '../../../lib/constants.ts';
import { ACCOUNT_TEXTS } from '../../../lib/account-texts.ts';

const V = ACCOUNT_TEXTS.account.validation;

const asciiEmail = z.string().check(z.email());
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Z}]/u;

/** A part of the address (the name, or one domain label) with both ASCII and other letters: a look-alike such as pаypal. */
function looksLikeAnotherAddress(value: string): boolean {
  if (INVISIBLE.test(value)) return true;
  return value.split(/[@.]/).some((part) => /[a-z]/i.test(part) && /[^\x00-\x7f]/.test(part) && /\p{L}/u.test(part.replace(/[\x00-\x7f]/g, '')));
}

/** Plain addresses through zod's check; internationalised ones (пример.рф) are left to the auth server, which knows IDNA. */
function plausibleEmail(value: string): boolean {
  if (/[^\x00-\x7f]/.test(value)) return /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/u.test(value);
  return asciiEmail.safeParse(value).success;
}

const emailField = z.string().check(
  z.trim(),
  z.minLength(1, V.emailRequired),
  z.refine((value) => value === '' || !looksLikeAnotherAddress(value), V.emailLookalike),
  z.refine((value) => value === '' || looksLikeAnotherAddress(value) || plausibleEmail(value), V.emailInvalid),
);

export const signInFormSchema = z.object({
  email: emailField,
  password: z.string().check(z.minLength(1, V.passwordRequired)),
});

export const signUpFormSchema = z.object({
  firstName: z.string().check(z.trim(), z.minLength(1, V.firstNameRequired)),
  lastName: z.string().check(z.trim(), z.minLength(1, V.lastNameRequired)),
  email: emailField,
  password: z.string().check(z.minLength(1, V.passwordRequired), z.minLength(PASSWORD_MIN_LENGTH, V.passwordTooShort)),
  acceptedTerms: z.literal(true, { error: V.termsRequired }),
});

export const profileFormSchema = z.object({ fullName: z.string().check(z.trim()), email: emailField });

export const forgotPasswordFormSchema = z.object({ email: emailField });

export const resetPasswordFormSchema = z
  .object({
    password: z.string().check(z.minLength(PASSWORD_MIN_LENGTH, V.passwordTooShort)),
    confirmPassword: z.string(),
  })
  .check(z.refine((form) => form.password === form.confirmPassword, { message: V.passwordsDoNotMatch, path: ['confirmPassword'] }));

/** The first message per field of a failed parse, for showing beside each input. */
export type FieldErrors<T> = Partial<Record<keyof T, string>>;

export function fieldErrorsOf<T>(error: z.core.$ZodError): FieldErrors<T> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? '');
    if (!(key in errors)) errors[key] = issue.message;
  }
  return errors as FieldErrors<T>;
}
