import { useState } from 'react';
import type { Member } from '../../../contract/members.ts';
import { MemberPicker } from './MemberPicker.tsx';
import { SnoozePicker } from './SnoozePicker.tsx';
import type { useTriageChange } from './use-triage-change.ts';

type Triage = ReturnType<typeof useTriageChange>;

interface Props {
  readonly members: readonly Member[];
  /** Who the picker shows first ('' for nobody). */
  readonly assignee: string;
  readonly assignLabel: string;
  /** Resolved alerts are not snoozed. */
  readonly canSnooze: boolean;
  readonly triage: Pick<Triage, 'snooze' | 'send' | 'submit'>;
}

/** The member picker with Assign, and the snooze picker with Snooze, of a triage form. */
export function AssignAndSnooze({ members, assignee: initial, assignLabel, canSnooze, triage }: Props) {
  const [assignee, setAssignee] = useState(initial);
  const { snooze, send, submit } = triage;
  return (
    <>
      <div className="row sg-al-bulk__pair">
        <MemberPicker label={assignLabel} members={members} value={assignee} onChange={setAssignee} />
        <button
          type="button"
          className="button secondary"
          disabled={submit.pending}
          onClick={() => send({ assigneeId: assignee || null }, assignee ? 'Assigned' : 'Unassigned')}
        >
          Assign
        </button>
      </div>
      {canSnooze && (
        <div className="row sg-al-bulk__pair">
          <SnoozePicker {...snooze} />
          <button
            type="button"
            className="button secondary"
            disabled={submit.pending}
            onClick={() => send('snooze', 'Snoozed')}
          >
            Snooze
          </button>
        </div>
      )}
    </>
  );
}
