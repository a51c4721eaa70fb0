import { useEffect, useState } from 'react';
import { errorMessage } from '../../lib/api.ts';
import { $ruleSuppressions, $suppressionRuleId, deleteRuleSuppression } from '../../stores/alerts.ts';
import { Alert } from '../shared/Alert.tsx';
import { ConfirmButton } from '../shared/ConfirmButton.tsx';
import { dateTime } from '../shared/format.ts';
import { Problem } from '../shared/Problem.tsx';
import { TableScroll } from '../shared/TableScroll.tsx';
import { useApi } from '../shared/use-api.ts';
import { groupText } from './group-text.ts';
import { scopeGroup } from './scope-group.ts';

interface Props {
  readonly spaceId: string;
  readonly ruleId: string;
  /** Analysts and up remove suppressions. */
  readonly canRemove: boolean;
}

/** The groups of a rule that do not alert for a while ("do not alert on this group for N days"): why, who, until, Remove. */
export function RuleSuppressions({ spaceId, ruleId, canRemove }: Props) {
  useEffect(() => {
    $suppressionRuleId.set(ruleId);
    return () => $suppressionRuleId.set(null);
  }, [ruleId]);
  const list = useApi($ruleSuppressions);
  const [failure, setFailure] = useState<string | null>(null);
  const remove = async (id: string): Promise<void> => {
    setFailure(null);
    try {
      await deleteRuleSuppression(spaceId, ruleId, id);
    } catch (error) {
      setFailure(errorMessage(error));
    }
  };
  const now = Date.now();
  let body = null;
  if (list.loaded.state === 'loading') body = <p className="muted">Loading suppressions…</p>;
  else if (list.loaded.state === 'error') body = <Problem error={list.loaded.error} onRetry={list.retry} />;
  else {
    const items = list.loaded.data.items.filter(
      (item) => item.revokedAt === null && (item.until === null || Date.parse(item.until) > now),
    );
    body =
      items.length === 0 ? (
        <p className="muted">No group of this rule is suppressed. Suppress one from an alert's page.</p>
      ) : (
        <TableScroll label="Suppressions table">
          <table className="data sg-al-table" aria-label="Suppressions">
            <thead>
              <tr>
                <th scope="col">Group</th>
                <th scope="col">Reason</th>
                <th scope="col">By</th>
                <th scope="col">Until</th>
                {canRemove && <th scope="col">Actions</th>}
              </tr>
            </thead>
            <tbody>
              {items.map((item) => (
                <tr key={item.id}>
                  <th scope="row" className="sg-mono">
                    {groupText(scopeGroup(item.scope))}
                  </th>
                  <td>{item.reason}</td>
                  <td>{item.actor.name ?? 'a former member'}</td>
                  <td className="sg-nowrap">{item.until ? dateTime(item.until) : 'removed by hand'}</td>
                  {canRemove && (
                    <td>
                      <ConfirmButton
                        label="Remove"
                        ariaLabel={`Remove the suppression of ${groupText(scopeGroup(item.scope))}`}
                        question="Alert on this group again?"
                        onConfirm={() => remove(item.id)}
                      />
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      );
  }
  return (
    <section className="sg-al-suppressions" aria-labelledby="sg-al-suppressions-heading">
      <h3 id="sg-al-suppressions-heading">Suppressed groups</h3>
      {failure && <Alert tone="error">{failure}</Alert>}
      {body}
    </section>
  );
}
