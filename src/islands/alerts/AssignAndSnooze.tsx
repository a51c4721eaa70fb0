import { useState } from 'react';
import type { Member } from '../../../contract/members.ts';
import { MemberPicker } from './MemberPicker.tsx';
import { SnoozePicker } from './SnoozePicker.tsx';
import { TriageButton } from './TriageButton.tsx';
import type { useTriageChange } from './use-triage-change.ts';

type Triage = ReturnType<typeof useTriageChange>;

interface Props {
  readonly members: readonly Member[];
  /** Who the picker shows first ('' for nobody). */
  readonly assignee: string;
  readonly assignLabel: string;
  /** Resolved alerts are not snoozed. */
  readonly canSnooze: boolean;
  readonly triage: Triage;
}

/** The member picker with Assign, and the snooze picker with Snooze, of a triage form. */
export function AssignAndSnooze({ members, assignee: initial, assignLabel, canSnooze, triage }: Props) {
  const [assignee, setAssignee] = useState(initial);
  const { snooze } = triage;
  return (
    <>
      <div className="row sg-al-bulk__pair">
        <MemberPicker label={assignLabel} members={members} value={assignee} onChange={setAssignee} />
        <TriageButton
          triage={triage}
          change={{ assigneeId: assignee || null }}
          done={assignee ? 'Assigned' : 'Unassigned'}
        >
          Assign
        </TriageButton>
      </div>
      {canSnooze && (
        <div className="row sg-al-bulk__pair">
          <SnoozePicker {...snooze} />
          <TriageButton triage={triage} change="snooze" done="Snoozed">
            Snooze
          </TriageButton>
        </div>
      )}
    </>
  );
}
