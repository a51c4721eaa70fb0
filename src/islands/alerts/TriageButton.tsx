import type { ReactNode } from 'react';
import type { TriageChange, useTriageChange } from './use-triage-change.ts';

interface Props {
  readonly triage: Pick<ReturnType<typeof useTriageChange>, 'send' | 'submit'>;
  /** What the button changes (`snooze`: the snooze picker's time). */
  readonly change: TriageChange | 'snooze';
  /** What is said once done ("Acknowledged"). */
  readonly done: string;
  /** The form's main action is drawn as a primary button. */
  readonly primary?: boolean;
  readonly children: ReactNode;
}

/** One button of a triage form: sends its change with the form's reason, disabled while a change is on its way. */
export function TriageButton({ triage, change, done, primary = false, children }: Props) {
  return (
    <button
      type="button"
      className={primary ? 'button' : 'button secondary'}
      disabled={triage.submit.pending}
      onClick={() => triage.send(change, done)}
    >
      {children}
    </button>
  );
}
