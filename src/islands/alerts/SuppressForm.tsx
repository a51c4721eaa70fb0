import { useState } from 'react';
import type { AlertDetail } from '../../../contract/alerts.ts';
import { alertLimits } from '../../../contract/constants/alerts.ts';
import { suppressAlertGroup } from '../../stores/alerts.ts';
import { Alert } from '../shared/Alert.tsx';
import { Field } from '../shared/Field.tsx';
import { Form } from '../shared/Form.tsx';
import { FormProblem, useSubmit } from '../shared/use-submit.ts';
import { groupText } from './group-text.ts';

interface Props {
  readonly alert: AlertDetail;
  readonly onSuppressed: (message: string) => void;
}

/** "Do not alert on this group for N days": a suppression of the alert's rule and group, with a required reason. */
export function SuppressForm({ alert, onSuppressed }: Props) {
  const [days, setDays] = useState('7');
  const [reason, setReason] = useState('');
  const submit = useSubmit(async () => {
    const count = /^\d+$/.test(days.trim()) ? Number(days.trim()) : Number.NaN;
    if (Number.isNaN(count)) throw new FormProblem({ days: 'Use a whole number of days.' });
    await suppressAlertGroup(alert.spaceId, alert.id, { days: count, reason });
    setReason('');
    onSuppressed(`This group will not alert for ${count} day${count === 1 ? '' : 's'}.`);
  });
  return (
    <section className="card panel sg-al-suppress" aria-labelledby="sg-al-suppress-heading">
      <h3 id="sg-al-suppress-heading">Do not alert on this group</h3>
      <p className="muted">
        The rule “{alert.ruleName}” stays on for other groups; <span className="sg-mono">{groupText(alert.group)}</span>{' '}
        opens no alert until the suppression ends or is removed from the rule.
      </p>
      <Form onSubmit={submit.onSubmit} pending={submit.pending} aria-label="Suppress this group">
        {submit.error && <Alert tone="error">{submit.error}</Alert>}
        <div className="sg-al-grid">
          <Field
            label="For (days)"
            inputMode="numeric"
            value={days}
            hint={`1 to ${alertLimits.suppressDays}.`}
            error={submit.fields.days}
            onChange={(event) => setDays(event.currentTarget.value)}
          />
          <Field
            label="Reason"
            required
            value={reason}
            maxLength={alertLimits.reasonLength}
            hint="Why this group should not alert, for whoever reads it later."
            error={submit.fields.reason}
            onChange={(event) => setReason(event.currentTarget.value)}
          />
        </div>
        <button type="submit" className="button secondary" disabled={submit.pending}>
          Do not alert on this group
        </button>
      </Form>
    </section>
  );
}
