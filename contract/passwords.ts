/** The password strength check: no zod, so the API's schema and the sign-up page's meter apply the same one. */
import { passwordRules } from './constants/passwords.ts';

/** Why a password is too weak, or null when it passes. */
export function passwordProblem(password: string): string | null {
  if (password.length < passwordRules.minLength) return `Use at least ${passwordRules.minLength} characters.`;
  if (password.length > passwordRules.maxLength) return `Use at most ${passwordRules.maxLength} characters.`;
  if (characterClasses(password) < 2 && password.length < 16) {
    return 'Mix letters with digits or symbols, or use 16 characters or more.';
  }
  if (/^(.)\1+$/.test(password)) return 'Do not repeat one character.';
  return null;
}

/** How many of lower case, upper case, digits and symbols a password uses (0–4). */
export function characterClasses(password: string): number {
  return [/[a-z]/, /[A-Z]/, /[0-9]/, /[^a-zA-Z0-9]/].filter((re) => re.test(password)).length;
}
