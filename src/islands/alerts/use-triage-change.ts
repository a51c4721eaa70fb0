/** The state of a triage form (one alert's quick actions, the list's bulk actions): reason, snooze picker, and a send per button. */
import { useRef, useState } from 'react';
import type { UpdateAlertBody } from '../../../contract/alerts.ts';
import { FormProblem, useSubmit } from '../shared/use-submit.ts';
import { type SnoozeChoice, snoozeUntil } from './snooze.ts';

/** What one button changes: a status, an assignee, or the snooze the picker shows (`snooze`). */
export type TriageChange = Omit<UpdateAlertBody, 'reason'>;

/**
 * `apply` sends the change with the typed reason (undefined when empty); `send(change, done)` runs it and, once the
 * API has answered, clears the reason and calls `onDone(done)`. A custom snooze time that is not in the future is
 * the form's own `snoozedUntil` error.
 */
export function useTriageChange(
  apply: (change: TriageChange, reason: string | undefined) => Promise<unknown>,
  onDone: (done: string) => void,
) {
  const [reason, setReason] = useState('');
  const [choice, setChoice] = useState<SnoozeChoice>('1h');
  const [local, setLocal] = useState('');
  // The change the clicked button asks for; a snooze is worked out when sent.
  const asked = useRef<{ change: TriageChange | 'snooze'; done: string } | null>(null);
  const submit = useSubmit(async () => {
    const current = asked.current;
    if (!current) return;
    let change: TriageChange;
    if (current.change === 'snooze') {
      const until = snoozeUntil(choice, local, Date.now());
      if (!until) throw new FormProblem({ snoozedUntil: 'Choose a date and time in the future.' });
      change = { snoozedUntil: until };
    } else change = current.change;
    await apply(change, reason.trim() || undefined);
    setReason('');
    onDone(current.done);
  });
  const send = (change: TriageChange | 'snooze', done: string): void => {
    asked.current = { change, done };
    void submit.run();
  };
  const snooze = {
    choice,
    local,
    error: submit.fields.snoozedUntil,
    onChange: (next: SnoozeChoice, nextLocal: string) => {
      setChoice(next);
      setLocal(nextLocal);
    },
  };
  return { reason, setReason, snooze, submit, send };
}
