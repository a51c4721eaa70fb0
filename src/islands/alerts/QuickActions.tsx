import { useState } from 'react';
import type { AlertDetail } from '../../../contract/alerts.ts';
import { alertLimits } from '../../../contract/constants/alerts.ts';
import type { Member } from '../../../contract/members.ts';
import { call, client } from '../../lib/api.ts';
import { Alert } from '../shared/Alert.tsx';
import { Field } from '../shared/Field.tsx';
import { MemberPicker } from './MemberPicker.tsx';
import { SnoozePicker } from './SnoozePicker.tsx';
import { isSnoozed } from './StatusBadge.tsx';
import { useTriageChange } from './use-triage-change.ts';

interface Props {
  readonly alert: AlertDetail;
  readonly meId: string | null;
  readonly members: readonly Member[];
  readonly onChanged: (message: string) => void;
}

/** What an analyst does to one alert: acknowledge, resolve, reopen, assign, snooze, each with an optional reason. */
export function QuickActions({ alert, meId, members, onChanged }: Props) {
  const [assignee, setAssignee] = useState(alert.assignee?.id ?? '');
  const { reason, setReason, snooze, submit, send } = useTriageChange(
    (change, why) =>
      call(
        client.spaces[':spaceId'].alerts[':id'].$patch({
          param: { spaceId: alert.spaceId, id: alert.id },
          json: { ...change, ...(why ? { reason: why } : {}) },
        }),
      ),
    onChanged,
  );
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
          <SnoozePicker {...snooze} />
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
