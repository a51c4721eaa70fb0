import { useState } from 'react';
import type { AlertRule } from '../../../contract/alert-rules.ts';
import { errorMessage } from '../../lib/api.ts';
import { buildPath } from '../../lib/routes.ts';
import { setAlertRuleEnabled } from '../../stores/alerts.ts';
import { Alert } from '../shared/Alert.tsx';
import { readAlertView, writeAlertView } from '../shared/alert-url.ts';
import { SeverityBadge } from '../shared/SeverityBadge.tsx';
import { TableScroll } from '../shared/TableScroll.tsx';
import { When } from './When.tsx';

interface Props {
  readonly spaceId: string;
  readonly rules: readonly AlertRule[];
  readonly now: number;
  /** Admins and owners switch rules on and off. */
  readonly canEdit: boolean;
  readonly onOpen: (rule: AlertRule, opener: HTMLButtonElement) => void;
}

const KIND_LABELS = { match: 'Match', threshold: 'Threshold', silence: 'Silence' } as const;

/** What a rule watches, in a few words: its query, its threshold and window, or the silence window. */
function condition(rule: AlertRule): string {
  if (rule.kind === 'silence') return `nothing for ${rule.windowMinutes ?? '?'} min`;
  const query = rule.query || 'every event';
  if (rule.kind === 'match') return query;
  const by = rule.groupBy.length > 0 ? ` by ${rule.groupBy.join(', ')}` : '';
  return `${query}: more than ${rule.threshold ?? '?'} in ${rule.windowMinutes ?? '?'} min${by}`;
}

/** The space's rules: name (opens the editor), kind, severity, condition, enabled, last fired, active alerts. */
export function RulesTable({ spaceId, rules, now, canEdit, onOpen }: Props) {
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const setEnabled = async (rule: AlertRule, enabled: boolean): Promise<void> => {
    setBusy(rule.id);
    setFailure(null);
    try {
      await setAlertRuleEnabled(spaceId, rule.id, enabled);
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setBusy(null);
    }
  };
  const alertsOf = (rule: AlertRule): string =>
    buildPath('/console/alert/{space_id}', { space_id: spaceId }) +
    writeAlertView({ ...readAlertView(''), ruleId: rule.id });
  return (
    <>
      {failure && <Alert tone="error">{failure}</Alert>}
      <TableScroll label="Alert rules table">
        <table className="data sg-al-table" aria-label="Alert rules">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Kind</th>
              <th scope="col">Severity</th>
              <th scope="col">Condition</th>
              <th scope="col">Enabled</th>
              <th scope="col">Last fired</th>
              <th scope="col" className="sg-num">
                Active alerts
              </th>
            </tr>
          </thead>
          <tbody>
            {rules.map((rule) => (
              <tr key={rule.id}>
                <th scope="row">
                  <button
                    type="button"
                    className="sg-al-link"
                    aria-label={`${canEdit ? 'Edit' : 'Open'} ${rule.name}`}
                    onClick={(event) => onOpen(rule, event.currentTarget)}
                  >
                    {rule.name}
                  </button>
                </th>
                <td>{KIND_LABELS[rule.kind]}</td>
                <td>
                  <SeverityBadge severity={rule.severity} />
                </td>
                <td className="sg-mono sg-al-query">{condition(rule)}</td>
                <td>
                  {canEdit ? (
                    <label className="sg-al-toggle">
                      <input
                        type="checkbox"
                        role="switch"
                        checked={rule.enabled}
                        aria-checked={rule.enabled}
                        disabled={busy === rule.id}
                        aria-label={`${rule.name} enabled`}
                        onChange={(event) => void setEnabled(rule, event.currentTarget.checked)}
                      />{' '}
                      {rule.enabled ? 'on' : 'off'}
                    </label>
                  ) : rule.enabled ? (
                    'on'
                  ) : (
                    'off'
                  )}
                </td>
                <td className="sg-nowrap">{rule.lastFiredAt ? <When iso={rule.lastFiredAt} now={now} /> : 'never'}</td>
                <td className="sg-num">
                  <a href={alertsOf(rule)}>
                    {rule.activeAlerts.toLocaleString('en')}
                    <span className="visually-hidden"> active alerts of {rule.name}</span>
                  </a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </>
  );
}
