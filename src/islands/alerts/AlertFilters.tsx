import { useEffect, useState } from 'react';
import type { AlertRule } from '../../../contract/alert-rules.ts';
import { type AlertStatus, alertStatuses } from '../../../contract/constants/alerts.ts';
import { type Severity, severities } from '../../../contract/constants/events.ts';
import type { Member } from '../../../contract/members.ts';
import type { AlertListView } from '../shared/alert-url.ts';

interface Props {
  readonly view: AlertListView;
  readonly rules: readonly AlertRule[];
  readonly members: readonly Member[];
  readonly onChange: (view: AlertListView) => void;
}

// Toggles one value of a list, keeping the vocabulary's order.
function toggle<T extends string>(list: readonly T[], value: T, on: boolean, order: readonly T[]): T[] {
  return order.filter((item) => (item === value ? on : list.includes(item)));
}

/** The list's filters: status, severity, rule, assignee and words; each change goes to the URL at once (words on Search). */
export function AlertFilters({ view, rules, members, onChange }: Props) {
  const [words, setWords] = useState(view.q);
  useEffect(() => setWords(view.q), [view.q]);
  return (
    <form
      className="sg-al-filters"
      aria-label="Filter alerts"
      onSubmit={(event) => {
        event.preventDefault();
        onChange({ ...view, q: words.trim() });
      }}
    >
      <fieldset className="sg-al-checks">
        <legend>Status</legend>
        {alertStatuses.map((status: AlertStatus) => (
          <label key={status}>
            <input
              type="checkbox"
              checked={view.status.includes(status)}
              // At least one status stays chosen.
              disabled={view.status.length === 1 && view.status.includes(status)}
              onChange={(event) =>
                onChange({ ...view, status: toggle(view.status, status, event.currentTarget.checked, alertStatuses) })
              }
            />{' '}
            {status}
          </label>
        ))}
      </fieldset>
      <fieldset className="sg-al-checks">
        <legend>Severity</legend>
        {severities.map((severity: Severity) => (
          <label key={severity}>
            <input
              type="checkbox"
              checked={view.severity.includes(severity)}
              onChange={(event) =>
                onChange({
                  ...view,
                  severity: toggle(view.severity, severity, event.currentTarget.checked, severities),
                })
              }
            />{' '}
            {severity}
          </label>
        ))}
      </fieldset>
      <div className="field">
        <label htmlFor="sg-al-rule">Rule</label>
        <select
          id="sg-al-rule"
          value={view.ruleId ?? ''}
          onChange={(event) => onChange({ ...view, ruleId: event.currentTarget.value || null })}
        >
          <option value="">Any rule</option>
          {rules.map((rule) => (
            <option key={rule.id} value={rule.id}>
              {rule.name}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="sg-al-assignee">Assignee</label>
        <select
          id="sg-al-assignee"
          value={view.assignee ?? ''}
          onChange={(event) => onChange({ ...view, assignee: event.currentTarget.value || null })}
        >
          <option value="">Anyone</option>
          <option value="me">Me</option>
          <option value="none">Unassigned</option>
          {members.map((member) => (
            <option key={member.userId} value={member.userId}>
              {member.name}
            </option>
          ))}
        </select>
      </div>
      <div className="field sg-al-words">
        <label htmlFor="sg-al-q">Words in the title or group</label>
        <div className="row">
          <input
            id="sg-al-q"
            type="search"
            value={words}
            maxLength={200}
            onChange={(event) => setWords(event.currentTarget.value)}
          />
          <button type="submit" className="button secondary">
            Search
          </button>
        </div>
      </div>
    </form>
  );
}
