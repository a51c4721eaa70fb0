import { useRef, useState } from 'react';
import type { AlertDetail, UpdateAlertBody } from '../../../contract/alerts.ts';
import { alertLimits } from '../../../contract/constants/alerts.ts';
import type { Member } from '../../../contract/members.ts';
import { call, client } from '../../lib/api.ts';
import { Alert } from '../shared/Alert.tsx';
import { Field } from '../shared/Field.tsx';
import { FormProblem, useSubmit } from '../shared/use-submit.ts';
import { MemberPicker } from './MemberPicker.tsx';
import { SnoozePicker } from './SnoozePicker.tsx';
import { isSnoozed } from './StatusBadge.tsx';
import { type SnoozeChoice, snoozeUntil } from './snooze.ts';

interface Props {
  readonly alert: AlertDetail;
  readonly meId: string | null;
  readonly members: readonly Member[];
  readonly onChanged: (message: string) => void;
}

type Change = Omit<UpdateAlertBody, 'reason'>;

/** What an analyst does to one alert: acknowledge, resolve, reopen, assign, snooze, each with an optional reason. */
export function QuickActions({ alert, meId, members, onChanged }: Props) {
  const [reason, setReason] = useState('');
  const [assignee, setAssignee] = useState(alert.assignee?.id ?? '');
  const [choice, setChoice] = useState<SnoozeChoice>('1h');
  const [local, setLocal] = useState('');
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
    await call(
      client.spaces[':spaceId'].alerts[':id'].$patch({
        param: { spaceId: alert.spaceId, id: alert.id },
        json: { ...body, ...(reason.trim() ? { reason: reason.trim() } : {}) },
      }),
    );
    setReason('');
    onChanged(change.done);
  });
  const send = (body: Change | 'snooze', done: string): void => {
    asked.current = { body, done };
    void submit.run();
  };
  const snoozed = isSnoozed(alert, Date.now());
  return (
    <section className="card panel sg-al-actions" aria-labelledby="sg-al-actions-heading">
      <h3 id="sg-al-actions-heading">Triage</h3>
      {submit.error && <Alert tone="error">{submit.error}</Alert>}
      <Field
        label="Reason (optional)"
        value={reason}
        maxLength={alertLimits.reasonLength}
        hint="Kept in the timeline with the change."
        error={submit.fields.reason}
        onChange={(event) => setReason(event.currentTarget.value)}
      />
      <div className="row">
        {alert.status === 'open' && (
          <button
            type="button"
            className="button"
            disabled={submit.pending}
            onClick={() => send({ status: 'acknowledged' }, 'Acknowledged.')}
          >
            Acknowledge
          </button>
        )}
        {alert.status !== 'resolved' && (
          <button
            type="button"
            className="button secondary"
            disabled={submit.pending}
            onClick={() => send({ status: 'resolved' }, 'Resolved.')}
          >
            Resolve
          </button>
        )}
        {(alert.status !== 'open' || snoozed) && (
          <button
            type="button"
            className="button secondary"
            disabled={submit.pending}
            onClick={() => send({ status: 'open', snoozedUntil: null }, 'Reopened.')}
          >
            Reopen
          </button>
        )}
        {meId && alert.assignee?.id !== meId && (
          <button
            type="button"
            className="button secondary"
            disabled={submit.pending}
            onClick={() => send({ assigneeId: meId }, 'Assigned to you.')}
          >
            Assign to me
          </button>
        )}
      </div>
      <div className="row sg-al-bulk__pair">
        <MemberPicker label="Assignee" members={members} value={assignee} onChange={setAssignee} />
        <button
          type="button"
          className="button secondary"
          disabled={submit.pending}
          onClick={() => send({ assigneeId: assignee || null }, assignee ? 'Assigned.' : 'Unassigned.')}
        >
          Assign
        </button>
      </div>
      {alert.status !== 'resolved' && (
        <div className="row sg-al-bulk__pair">
          <SnoozePicker
            choice={choice}
            local={local}
            error={submit.fields.snoozedUntil}
            onChange={(next, nextLocal) => {
              setChoice(next);
              setLocal(nextLocal);
            }}
          />
          <button
            type="button"
            className="button secondary"
            disabled={submit.pending}
            onClick={() => send('snooze', 'Snoozed.')}
          >
            Snooze
          </button>
        </div>
      )}
    </section>
  );
}
