import * as z from 'zod/mini';
import { PASSWORD_MIN_LENGTH } from '../../../lib/constants.ts';
import { TEXTS } from '../../../lib/spec-texts.ts';

const V = TEXTS.account.validation;

const emailField = z.string().check(z.trim(), z.minLength(1, V.emailRequired), z.email(V.emailInvalid));

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
