import { useRef } from 'react';
import { alertLimits } from '../../../contract/constants/alerts.ts';
import type { Member } from '../../../contract/members.ts';
import { changeAlerts } from '../../stores/alerts.ts';
import { Alert } from '../shared/Alert.tsx';
import { Field } from '../shared/Field.tsx';
import { AssignAndSnooze } from './AssignAndSnooze.tsx';
import { TriageButton } from './TriageButton.tsx';
import { useTriageChange } from './use-triage-change.ts';

interface Props {
  readonly spaceId: string;
  readonly ids: readonly string[];
  readonly members: readonly Member[];
  /** Called with what was done ("Acknowledged 3 alerts.") once the API has answered. */
  readonly onDone: (message: string) => void;
}

const plural = (count: number): string => `${count} alert${count === 1 ? '' : 's'}`;

/** What analysts do to the selected alerts at once: acknowledge, resolve, assign or snooze, with an optional reason. */
export function BulkActions({ spaceId, ids, members, onDone }: Props) {
  // The count is read when the API answers: "Acknowledged 3 alerts."
  const updated = useRef(0);
  const triage = useTriageChange(
    async (change, why) => {
      const answer = await changeAlerts(spaceId, { ids: [...ids], ...change, ...(why ? { reason: why } : {}) });
      updated.current = answer.updated;
    },
    (done) => onDone(`${done} ${plural(updated.current)}.`),
  );
  const { reason, setReason, submit } = triage;
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
        <TriageButton triage={triage} change={{ status: 'acknowledged' }} done="Acknowledged" primary>
          Acknowledge
        </TriageButton>
        <TriageButton triage={triage} change={{ status: 'resolved' }} done="Resolved">
          Resolve
        </TriageButton>
      </div>
      <AssignAndSnooze members={members} assignee="" assignLabel="Assign to" canSnooze triage={triage} />
    </section>
  );
}
