import { useRef, useState } from 'react';
import type { BulkAlertBody } from '../../../contract/alerts.ts';
import { alertLimits } from '../../../contract/constants/alerts.ts';
import type { Member } from '../../../contract/members.ts';
import { call, client } from '../../lib/api.ts';
import { Alert } from '../shared/Alert.tsx';
import { Field } from '../shared/Field.tsx';
import { FormProblem, useSubmit } from '../shared/use-submit.ts';
import { MemberPicker } from './MemberPicker.tsx';
import { SnoozePicker } from './SnoozePicker.tsx';
import { type SnoozeChoice, snoozeUntil } from './snooze.ts';

interface Props {
  readonly spaceId: string;
  readonly ids: readonly string[];
  readonly members: readonly Member[];
  /** Called with what was done ("Acknowledged 3 alerts.") once the API has answered. */
  readonly onDone: (message: string) => void;
}

type Change = Omit<BulkAlertBody, 'ids' | 'reason'>;

const plural = (count: number): string => `${count} alert${count === 1 ? '' : 's'}`;

/** What analysts do to the selected alerts at once: acknowledge, resolve, assign or snooze, with an optional reason. */
export function BulkActions({ spaceId, ids, members, onDone }: Props) {
  const [reason, setReason] = useState('');
  const [assignee, setAssignee] = useState('');
  const [choice, setChoice] = useState<SnoozeChoice>('1h');
  const [local, setLocal] = useState('');
  // The change the clicked button asks for; a snooze is worked out when sent.
  const asked = useRef<{ body: Change | 'snooze'; done: string } | null>(null);
  const submit = useSubmit(async () => {
    const change = asked.current;
    if (!change) return;
    let body: Change;
    if (change.body === 'snooze') {
      const until = snoozeUntil(choice, local, Date.now());
      if (!until) throw new FormProblem({ snoozedUntil: 'Choose a date and time in the future.' });
      body = { snoozedUntil: until };
    } else body = change.body;
    const answer = await call(
      client.spaces[':spaceId'].alerts.bulk.$post({
        param: { spaceId },
        json: { ids: [...ids], ...body, ...(reason.trim() ? { reason: reason.trim() } : {}) },
      }),
    );
    setReason('');
    onDone(`${change.done} ${plural(answer.updated)}.`);
  });
  const send = (body: Change | 'snooze', done: string): void => {
    asked.current = { body, done };
    void submit.run();
  };
  return (
    <section className="sg-al-bulk" aria-label="Change the selected alerts">
      <p className="sg-al-bulk__count" aria-live="polite">
        {plural(ids.length)} selected
        {ids.length > alertLimits.bulkIds ? ` (at most ${alertLimits.bulkIds} at a time)` : ''}
      </p>
      {submit.error && <Alert tone="error">{submit.error}</Alert>}
      <Field
        label="Reason (optional)"
        value={reason}
        maxLength={alertLimits.reasonLength}
        onChange={(event) => setReason(event.currentTarget.value)}
        error={submit.fields.reason}
      />
      <div className="row">
        <button
          type="button"
          className="button"
          disabled={submit.pending}
          onClick={() => send({ status: 'acknowledged' }, 'Acknowledged')}
        >
          Acknowledge
        </button>
        <button
          type="button"
          className="button secondary"
          disabled={submit.pending}
          onClick={() => send({ status: 'resolved' }, 'Resolved')}
        >
          Resolve
        </button>
      </div>
      <div className="row sg-al-bulk__pair">
        <MemberPicker label="Assign to" members={members} value={assignee} onChange={setAssignee} />
        <button
          type="button"
          className="button secondary"
          disabled={submit.pending}
          onClick={() => send({ assigneeId: assignee || null }, assignee ? 'Assigned' : 'Unassigned')}
        >
          Assign
        </button>
      </div>
      <div className="row sg-al-bulk__pair">
        <SnoozePicker
          choice={choice}
          local={local}
          onChange={(next, nextLocal) => {
            setChoice(next);
            setLocal(nextLocal);
          }}
          error={submit.fields.snoozedUntil}
        />
        <button
          type="button"
          className="button secondary"
          disabled={submit.pending}
          onClick={() => send('snooze', 'Snoozed')}
        >
          Snooze
        </button>
      </div>
    </section>
  );
}
