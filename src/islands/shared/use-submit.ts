import { type FormEvent, useState } from 'react';
import { ApiError, errorMessage } from '../../lib/api.ts';

export interface SubmitState {
  readonly pending: boolean;
  /** Message for the whole form (not tied to one field). */
  readonly error: string | null;
  /** Per-field messages from the API's `fields` or the form's own checks. */
  readonly fields: Readonly<Record<string, string>>;
}

/** Runs a form's action with pending, form-level and per-field errors; the typed values stay in the form. */
export function useSubmit(action: (form: FormData) => Promise<void>) {
  const [state, setState] = useState<SubmitState>({ pending: false, error: null, fields: {} });
  const onSubmit = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    setState({ pending: true, error: null, fields: {} });
    try {
      await action(new FormData(event.currentTarget));
      setState({ pending: false, error: null, fields: {} });
    } catch (error) {
      const fields = error instanceof ApiError ? error.fields : error instanceof FormProblem ? error.fields : {};
      let message = Object.keys(fields).length > 0 ? null : errorMessage(error);
      if (error instanceof ApiError && error.retryAfter) {
        message = `${error.message} Try again in ${Math.ceil(error.retryAfter / 60)} minute(s).`;
      }
      setState({ pending: false, error: message, fields });
    }
  };
  return { ...state, onSubmit };
}

/** A check the form makes itself before calling the API, naming the field. */
export class FormProblem extends Error {
  readonly fields: Record<string, string>;
  constructor(fields: Record<string, string>) {
    super(Object.values(fields).join(' '));
    this.fields = fields;
  }
}

/** A form field's text value. */
export function text(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
}
