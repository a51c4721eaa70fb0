/** Turns a failed call into what a form shows: per-field messages next to the fields, or one message above them. */
import { ApiError, errorMessage } from '../../lib/api.ts';

export interface FormErrors {
  /** Message for the whole form, when no field is named. */
  readonly message: string | null;
  readonly fields: Readonly<Record<string, string>>;
}

export const NO_ERRORS: FormErrors = { message: null, fields: {} };

/** Splits an error into the form's message and its per-field messages; fields the form does not show go to the message. */
export function formErrors(error: unknown, shown: readonly string[]): FormErrors {
  const fields = error instanceof ApiError ? error.fields : {};
  const mine: Record<string, string> = {};
  const others: string[] = [];
  for (const [name, text] of Object.entries(fields)) {
    if (shown.includes(name)) mine[name] = text;
    else others.push(text);
  }
  let message: string | null = null;
  if (Object.keys(mine).length === 0) message = errorMessage(error);
  else if (others.length > 0) message = others.join(' ');
  if (error instanceof ApiError && error.retryAfter) {
    message = `${error.message} Try again in ${Math.ceil(error.retryAfter / 60)} minute(s).`;
  }
  return { message, fields: mine };
}
