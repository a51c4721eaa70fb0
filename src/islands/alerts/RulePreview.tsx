import { useState } from 'react';
import type { AlertRulePreview, AlertRulePreviewBody } from '../../../contract/alert-rules.ts';
import { ApiError } from '../../lib/api.ts';
import { previewAlertRule } from '../../stores/alerts.ts';
import { Alert } from '../shared/Alert.tsx';
import { TableScroll } from '../shared/TableScroll.tsx';
import { FormProblem, useSubmit } from '../shared/use-submit.ts';
import { eventLogLink } from './event-log-link.ts';
import { groupText } from './group-text.ts';
import { When } from './When.tsx';

interface Props {
  readonly spaceId: string;
  /** The preview body of the form as it is now (throws the form's own field problems). */
  readonly body: () => AlertRulePreviewBody;
  /** Field messages of a refused preview go to the editor's fields. */
  readonly onFieldErrors: (fields: Readonly<Record<string, string>>) => void;
}

const times = (count: number): string => (count === 1 ? 'once' : `${count.toLocaleString('en')} times`);

/** "Preview against the last 24 h": how often the rule as typed would have fired, for which groups. */
export function RulePreview({ spaceId, body, onFieldErrors }: Props) {
  const [preview, setPreview] = useState<AlertRulePreview | null>(null);
  const submit = useSubmit(async () => {
    setPreview(null);
    onFieldErrors({});
    try {
      setPreview(await previewAlertRule(spaceId, body()));
    } catch (error) {
      if (error instanceof ApiError || error instanceof FormProblem) onFieldErrors(error.fields);
      throw error;
    }
  });
  return (
    <section className="sg-al-preview" aria-labelledby="sg-al-preview-heading">
      <div className="row">
        <h3 id="sg-al-preview-heading">Preview</h3>
        <button type="button" className="button secondary" disabled={submit.pending} onClick={() => void submit.run()}>
          {submit.pending ? 'Previewing…' : 'Preview against the last 24 h'}
        </button>
      </div>
      {submit.error && <Alert tone="error">{submit.error}</Alert>}
      {preview && (
        <div role="status" className="sg-al-preview__result">
          <p>
            {preview.firings === 0
              ? 'This rule would not have fired in the last 24 h.'
              : `This rule would have fired ${times(preview.firings)} in the last 24 h, opening ${preview.alerts.toLocaleString('en')} alert${preview.alerts === 1 ? '' : 's'}.`}{' '}
            <a href={eventLogLink(spaceId, preview.eventQuery, preview.from, preview.to)}>Open the matching events</a>
          </p>
          {preview.groups.length > 0 && (
            <TableScroll label="Preview groups table">
              <table className="data sg-al-table" aria-label="Groups the rule would have alerted on">
                <thead>
                  <tr>
                    <th scope="col">Group</th>
                    <th scope="col">Title</th>
                    <th scope="col" className="sg-num">
                      Firings
                    </th>
                    <th scope="col" className="sg-num">
                      Events
                    </th>
                    <th scope="col">First seen</th>
                    <th scope="col">Last seen</th>
                  </tr>
                </thead>
                <tbody>
                  {preview.groups.map((group) => (
                    <tr key={group.groupKey}>
                      <th scope="row" className="sg-mono">
                        {groupText(group.group)}
                      </th>
                      <td>{group.title}</td>
                      <td className="sg-num">{group.firings.toLocaleString('en')}</td>
                      <td className="sg-num">{group.events.toLocaleString('en')}</td>
                      <td className="sg-nowrap">
                        <When iso={group.firstSeen} now={Date.now()} />
                      </td>
                      <td className="sg-nowrap">
                        <When iso={group.lastSeen} now={Date.now()} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )}
        </div>
      )}
    </section>
  );
}
