import { useMemo, useState } from 'react';
import { planTerms } from '../../../contract/constants/plans.ts';
import { retentionHint } from '../../../contract/plans.ts';
import type { Space } from '../../../contract/spaces.ts';
import { updateSpace } from '../../stores/space.ts';
import { Alert } from '../shared/Alert.tsx';
import { Field } from '../shared/Field.tsx';
import { SelectField } from '../shared/SelectField.tsx';
import { FormProblem, useSubmit } from '../shared/use-submit.ts';
import { DescriptionEditor } from './DescriptionEditor.tsx';
import { timeZoneOptions } from './time-zones.ts';

interface Props {
  readonly space: Space;
}

const FIELDS = ['name', 'description', 'timeZone', 'retentionDays'] as const;

/** Name, description, time zone and retention of a space, saved together; what was typed stays after an error. */
export function SettingsForm({ space }: Props) {
  const [name, setName] = useState(space.name);
  const [description, setDescription] = useState(space.description);
  const [timeZone, setTimeZone] = useState(space.timeZone);
  const [retention, setRetention] = useState(String(space.retentionDays));
  const [saved, setSaved] = useState(false);
  const zones = useMemo(() => timeZoneOptions(space.timeZone), [space.timeZone]);
  const limit = planTerms[space.plan].retentionDays;

  const { pending, error, fields, onSubmit } = useSubmit(
    async () => {
      setSaved(false);
      const retentionDays = Number(retention);
      if (!/^\d+$/.test(retention.trim()) || retentionDays < 1) {
        throw new FormProblem({ retentionDays: 'Enter a whole number of days, at least 1.' });
      }
      await updateSpace(space.id, { name, description, timeZone, retentionDays });
      setSaved(true);
    },
    { fields: FIELDS },
  );

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate aria-busy={pending}>
      {error && <Alert tone="error">{error}</Alert>}
      {saved && <Alert tone="success">Settings saved.</Alert>}
      <Field
        label="Name"
        name="name"
        required
        maxLength={80}
        value={name}
        onChange={(event) => setName(event.currentTarget.value)}
        error={fields.name}
      />
      <DescriptionEditor value={description} onChange={setDescription} error={fields.description} />
      <SelectField
        label="Time zone"
        name="timeZone"
        value={timeZone}
        onChange={(event) => setTimeZone(event.currentTarget.value)}
        options={zones.map((zone) => ({ value: zone, label: zone.replaceAll('_', ' ') }))}
        hint="Used for daily reports and retention days."
        error={fields.timeZone}
      />
      <Field
        label="Data retention (days)"
        name="retentionDays"
        type="number"
        inputMode="numeric"
        min={1}
        max={limit}
        value={retention}
        onChange={(event) => setRetention(event.currentTarget.value)}
        hint={retentionHint(space.plan)}
        error={fields.retentionDays}
      />
      <button className="button" type="submit" disabled={pending}>
        {pending ? 'Saving…' : 'Save settings'}
      </button>
    </form>
  );
}
