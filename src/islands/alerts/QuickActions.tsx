import type { AlertDetail } from '../../../contract/alerts.ts';
import { alertLimits } from '../../../contract/constants/alerts.ts';
import type { Member } from '../../../contract/members.ts';
import { changeAlert } from '../../stores/alerts.ts';
import { Alert } from '../shared/Alert.tsx';
import { Field } from '../shared/Field.tsx';
import { AssignAndSnooze } from './AssignAndSnooze.tsx';
import { isSnoozed } from './StatusBadge.tsx';
import { TriageButton } from './TriageButton.tsx';
import { useTriageChange } from './use-triage-change.ts';

interface Props {
  readonly alert: AlertDetail;
  readonly meId: string | null;
  readonly members: readonly Member[];
  readonly onChanged: (message: string) => void;
}

/** What an analyst does to one alert: acknowledge, resolve, reopen, assign, snooze, each with an optional reason. */
export function QuickActions({ alert, meId, members, onChanged }: Props) {
  const triage = useTriageChange(
    (change, why) => changeAlert(alert.spaceId, alert.id, { ...change, ...(why ? { reason: why } : {}) }),
    (done) => onChanged(`${done}.`),
  );
  const { reason, setReason, submit } = triage;
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
          <TriageButton triage={triage} change={{ status: 'acknowledged' }} done="Acknowledged" primary>
            Acknowledge
          </TriageButton>
        )}
        {alert.status !== 'resolved' && (
          <TriageButton triage={triage} change={{ status: 'resolved' }} done="Resolved">
            Resolve
          </TriageButton>
        )}
        {(alert.status !== 'open' || snoozed) && (
          <TriageButton triage={triage} change={{ status: 'open', snoozedUntil: null }} done="Reopened">
            Reopen
          </TriageButton>
        )}
        {meId && alert.assignee?.id !== meId && (
          <TriageButton triage={triage} change={{ assigneeId: meId }} done="Assigned to you">
            Assign to me
          </TriageButton>
        )}
      </div>
      <AssignAndSnooze
        members={members}
        assignee={alert.assignee?.id ?? ''}
        assignLabel="Assignee"
        canSnooze={alert.status !== 'resolved'}
        triage={triage}
      />
    </section>
  );
}
