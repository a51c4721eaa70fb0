/** The sign-up page's strength meter, over the very rules the API applies (contract/constants/passwords.ts). */
import { characterClasses, passwordProblem } from '../../../contract/passwords.ts';

/** A 0–4 score and a label for the strength meter. */
export function passwordVerdict(password: string): { score: number; label: string } {
  const problem = passwordProblem(password);
  if (problem) return { score: password.length === 0 ? 0 : 1, label: `Too weak: ${problem}` };
  const classes = characterClasses(password);
  const score = Math.min(4, 2 + (password.length >= 14 ? 1 : 0) + (classes >= 3 ? 1 : 0));
  return { score, label: score >= 4 ? 'Strong password.' : score === 3 ? 'Good password.' : 'Acceptable password.' };
}
