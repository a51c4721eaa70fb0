/** The password rules of contract/auth.ts, restated without zod so the sign-up page stays light; a test keeps both in step. */

export const MIN_PASSWORD = 10;
export const MAX_PASSWORD = 200;

/** Why a password is too weak, or null when the API will accept it. */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD) return `Use at least ${MIN_PASSWORD} characters.`;
  if (password.length > MAX_PASSWORD) return `Use at most ${MAX_PASSWORD} characters.`;
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^a-zA-Z0-9]/].filter((re) => re.test(password)).length;
  if (classes < 2 && password.length < 16) return 'Mix letters with digits or symbols, or use 16 characters or more.';
  if (/^(.)\1+$/.test(password)) return 'Do not repeat one character.';
  return null;
}

/** A 0–4 score and a label for the strength meter. */
export function passwordVerdict(password: string): { score: number; label: string } {
  const problem = passwordProblem(password);
  if (problem) return { score: password.length === 0 ? 0 : 1, label: `Too weak: ${problem}` };
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^a-zA-Z0-9]/].filter((re) => re.test(password)).length;
  const score = Math.min(4, 2 + (password.length >= 14 ? 1 : 0) + (classes >= 3 ? 1 : 0));
  return { score, label: score >= 4 ? 'Strong password.' : score === 3 ? 'Good password.' : 'Acceptable password.' };
}
