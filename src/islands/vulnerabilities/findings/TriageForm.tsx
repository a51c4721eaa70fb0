import { useId, useState } from 'react';
import {
  findingStatusLabels,
  type triageableStatuses,
  vexJustificationLabels,
  vexJustifications,
} from '../../../../contract/constants/vulns.ts';
import type { UpdateFindingBody } from '../../../../contract/findings.ts';
import { Alert } from '../../shared/Alert.tsx';
import { Field } from '../../shared/Field.tsx';
import { FieldFrame } from '../../shared/FieldFrame.tsx';
import { SelectField } from '../../shared/SelectField.tsx';
import { text, useSubmit } from '../../shared/use-submit.ts';

type Status = (typeof triageableStatuses)[number];

interface Props {
  /** "Triage 3 findings" or "Triage". */
  readonly legend: string;
  readonly initial?: Status | undefined;
  /** Sends the decision; throws the API's error (its fields are shown next to the inputs). */
  readonly onTriage: (change: UpdateFindingBody) => Promise<void>;
}

const FIELDS = ['status', 'justification', 'reason', 'until'] as const;

/** A date input's value as the end of that day, in the browser's time zone, as RFC 3339. */
function endOfDay(value: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d, 23, 59, 59).toISOString();
}

/**
 * A triage decision in VEX terms: open, not affected (with a CycloneDX justification) or risk accepted (with why and
 * until when; the finding opens again then). The same form triages one finding and many.
 */
export function TriageForm({ legend, initial = 'not_affected', onTriage }: Props) {
  const [status, setStatus] = useState<Status>(initial);
  const [done, setDone] = useState(false);
  const id = useId();
  const submit = useSubmit(
    async (form) => {
      setDone(false);
      const reason = text(form, 'reason').trim();
      const until = endOfDay(text(form, 'until'));
      const justification = text(form, 'justification');
      await onTriage({
        status,
        ...(reason ? { reason } : {}),
        ...(status === 'accepted' && until ? { until } : {}),
        ...(status === 'not_affected' && justification
          ? { justification: justification as UpdateFindingBody['justification'] & string }
          : {}),
      });
      setDone(true);
    },
    { fields: FIELDS },
  );
  return (
    <form className="sg-vu-triage" onSubmit={submit.onSubmit} aria-labelledby={`${id}-legend`} noValidate>
      <h3 id={`${id}-legend`}>{legend}</h3>
      {submit.error && <Alert tone="error">{submit.error}</Alert>}
      <SelectField
        label="Decision"
        name="status"
        value={status}
        onChange={(event) => setStatus(event.target.value as Status)}
        error={submit.fields.status}
        options={(['not_affected', 'accepted', 'open'] as const).map((value) => ({
          value,
          label: value === 'open' ? 'Open (undo a decision)' : findingStatusLabels[value],
        }))}
      />
      {status === 'not_affected' && (
        <SelectField
          label="Justification (VEX)"
          name="justification"
          defaultValue=""
          error={submit.fields.justification}
          options={[
            { value: '', label: 'Choose why…' },
            ...vexJustifications.map((value) => ({ value, label: vexJustificationLabels[value] })),
          ]}
        />
      )}
      {status === 'accepted' && (
        <Field
          label="Accepted until"
          name="until"
          type="date"
          hint="The finding opens again after this day."
          error={submit.fields.until}
          required
        />
      )}
      <FieldFrame
        label={status === 'accepted' ? 'Why the risk is accepted' : 'Reason (optional)'}
        error={submit.fields.reason}
      >
        {(control) => <textarea {...control} name="reason" rows={2} maxLength={2_000} />}
      </FieldFrame>
      <div className="row">
        <button type="submit" className="button" disabled={submit.pending}>
          {submit.pending ? 'Saving…' : 'Save decision'}
        </button>
        {done && !submit.pending && (
          <span className="muted" role="status">
            Saved.
          </span>
        )}
      </div>
    </form>
  );
}
