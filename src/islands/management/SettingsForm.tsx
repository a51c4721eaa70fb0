import { type FormEvent, useMemo, useState } from 'react';
import { planTerms, retentionHint } from '../../../contract/constants/plans.ts';
import type { Space } from '../../../contract/spaces.ts';
import { api } from '../../lib/api.ts';
import { Alert } from '../shared/Alert.tsx';
import { Field } from '../shared/Field.tsx';
import { type FormErrors, formErrors, NO_ERRORS } from '../shared/form-errors.ts';
import { SelectField } from '../shared/SelectField.tsx';
import { DescriptionEditor } from './DescriptionEditor.tsx';
import { timeZoneOptions } from './time-zones.ts';

interface Props {
  readonly space: Space;
  readonly onSaved: (space: Space) => void;
}

const FIELDS = ['name', 'description', 'timeZone', 'retentionDays'] as const;

/** Name, description, time zone and retention of a space, saved together; what was typed stays after an error. */
export function SettingsForm({ space, onSaved }: Props) {
  const [name, setName] = useState(space.name);
  const [description, setDescription] = useState(space.description);
  const [timeZone, setTimeZone] = useState(space.timeZone);
  const [retention, setRetention] = useState(String(space.retentionDays));
  const [pending, setPending] = useState(false);
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [saved, setSaved] = useState(false);
  const zones = useMemo(() => timeZoneOptions(space.timeZone), [space.timeZone]);
  const limit = planTerms[space.plan].retentionDays;

  const submit = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    setSaved(false);
    const retentionDays = Number(retention);
    if (!/^\d+$/.test(retention.trim()) || retentionDays < 1) {
      setErrors({ message: null, fields: { retentionDays: 'Enter a whole number of days, at least 1.' } });
      return;
    }
    setPending(true);
    setErrors(NO_ERRORS);
    try {
      const updated = await api<Space>(`/spaces/${space.id}`, {
        method: 'PATCH',
        body: { name, description, timeZone, retentionDays },
      });
      setSaved(true);
      onSaved(updated);
    } catch (error) {
      setErrors(formErrors(error, FIELDS));
    } finally {
      setPending(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-busy={pending}>
      {errors.message && <Alert tone="error">{errors.message}</Alert>}
      {saved && <Alert tone="success">Settings saved.</Alert>}
      <Field
        label="Name"
        name="name"
        required
        maxLength={80}
        value={name}
        onChange={(event) => setName(event.currentTarget.value)}
        error={errors.fields.name}
      />
      <DescriptionEditor value={description} onChange={setDescription} error={errors.fields.description} />
      <SelectField
        label="Time zone"
        name="timeZone"
        value={timeZone}
        onChange={(event) => setTimeZone(event.currentTarget.value)}
        options={zones.map((zone) => ({ value: zone, label: zone.replaceAll('_', ' ') }))}
        hint="Used for daily reports and retention days."
        error={errors.fields.timeZone}
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
        error={errors.fields.retentionDays}
      />
      <button className="button" type="submit" disabled={pending}>
        {pending ? 'Saving…' : 'Save settings'}
      </button>
    </form>
  );
}
