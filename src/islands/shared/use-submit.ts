/** The one way a form sends: pending state, and a failure split into per-field messages and one form message. */
import { createElement, type FormEvent, type ReactNode, useState } from 'react';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { isPlanLimit, PlanLimitNotice } from './PlanLimitNotice.tsx';

export interface SubmitState {
  readonly pending: boolean;
  /**
   * Message for the whole form (not tied to one field the form shows); past a plan limit, the message with a link to
   * the plans (`PlanLimitNotice`), even when a field shows the message too.
   */
  readonly error: ReactNode;
  /** Per-field messages from the API's `fields` or the form's own checks, for the fields the form shows. */
  readonly fields: Readonly<Record<string, string>>;
}

export interface SubmitOptions {
  /** The fields the form shows; the API's messages for any other field go to the form message. All, when left out. */
  readonly fields?: readonly string[];
}

const IDLE: SubmitState = { pending: false, error: null, fields: {} };

/** A check the form makes itself before calling the API, naming the field. */
export class FormProblem extends Error {
  readonly fields: Record<string, string>;
  constructor(fields: Record<string, string>) {
    super(Object.values(fields).join(' '));
    this.fields = fields;
  }
}

/**
 * What a form shows for a failure: messages of the fields it shows next to them, the rest (or the error's own
 * message when no shown field is named) above the form; a refusal with Retry-After says when to try again.
 */
export function submitErrors(error: unknown, shown?: readonly string[]): Omit<SubmitState, 'pending'> {
  const named = error instanceof ApiError || error instanceof FormProblem ? error.fields : {};
  const fields: Record<string, string> = {};
  const others: string[] = [];
  for (const [name, text] of Object.entries(named)) {
    if (!shown || shown.includes(name)) fields[name] = text;
    else others.push(text);
  }
  let message: string | null = null;
  if (Object.keys(fields).length === 0) message = errorMessage(error);
  else if (others.length > 0) message = others.join(' ');
  if (error instanceof ApiError && error.retryAfter) {
    message = `${error.message} Try again in ${Math.ceil(error.retryAfter / 60)} minute(s).`;
  }
  if (isPlanLimit(error)) return { error: createElement(PlanLimitNotice, { error }), fields };
  return { error: message, fields };
}

/**
 * Runs a form's action with pending, form-level and per-field errors; the typed values stay in the form.
 * `onSubmit` is the form's handler; `run` sends without a form event (a confirm button, for instance).
 */
export function useSubmit(action: (form: FormData) => Promise<void>, options: SubmitOptions = {}) {
  const [state, setState] = useState<SubmitState>(IDLE);
  const run = async (form: FormData = new FormData()): Promise<void> => {
    setState({ pending: true, error: null, fields: {} });
    try {
      await action(form);
      setState(IDLE);
    } catch (error) {
      setState({ pending: false, ...submitErrors(error, options.fields) });
    }
  };
  const onSubmit = (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    return run(new FormData(event.currentTarget));
  };
  return { ...state, onSubmit, run };
}

/** A form field's text value. */
export function text(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
}
