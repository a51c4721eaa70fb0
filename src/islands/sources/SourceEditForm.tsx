import { type FormEvent, useState } from 'react';
import { parseSourceKind, sourceKindOptions } from '../../../contract/constants/sources.ts';
import type { Source, SourceKind } from '../../../contract/sources.ts';
import { api } from '../../lib/api.ts';
import { type FormErrors, formErrors, NO_ERRORS } from '../shared/form-errors.ts';
import { SelectField } from '../shared/SelectField.tsx';
import { Alert } from '../shared/Alert.tsx';
import { Field } from '../shared/Field.tsx';

interface Props {
  readonly source: Source;
  readonly spaceRetentionDays: number;
  readonly onSaved: (source: Source) => void;
}

const FIELDS = ['name', 'kind', 'retentionDays'] as const;

/** Name, kind and retention of a source, saved together; what was typed stays after an error. */
export function SourceEditForm({ source, spaceRetentionDays, onSaved }: Props) {
  const [name, setName] = useState(source.name);
  const [kind, setKind] = useState<SourceKind>(source.kind);
  const [retention, setRetention] = useState(source.retentionDays === null ? '' : String(source.retentionDays));
  const [pending, setPending] = useState(false);
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [saved, setSaved] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    setSaved(false);
    const typed = retention.trim();
    if (typed !== '' && !/^\d+$/.test(typed)) {
      setErrors({ message: null, fields: { retentionDays: 'Enter a whole number of days, or leave it empty.' } });
      return;
    }
    setPending(true);
    setErrors(NO_ERRORS);
    try {
      const updated = await api<Source>(`/spaces/${source.spaceId}/sources/${source.id}`, {
        method: 'PATCH',
        body: { name, kind, retentionDays: typed === '' ? null : Number(typed) },
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
    <form onSubmit={(event) => void submit(event)} noValidate aria-busy={pending} aria-label="Source settings">
      {errors.message && <Alert tone="error">{errors.message}</Alert>}
      {saved && <Alert tone="success">Changes saved.</Alert>}
      <div className="sg-source-fields">
        <Field
          label="Name"
          name="name"
          required
          maxLength={80}
          autoComplete="off"
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          error={errors.fields.name}
        />
        <SelectField
          label="Kind"
          name="kind"
          value={kind}
          onChange={(event) => setKind(parseSourceKind(event.currentTarget.value) ?? source.kind)}
          options={sourceKindOptions}
          hint="Lines already stored keep how they were read."
          error={errors.fields.kind}
        />
        <Field
          label="Retention (days)"
          name="retentionDays"
          type="number"
          inputMode="numeric"
          min={1}
          max={365}
          placeholder={String(spaceRetentionDays)}
          value={retention}
          onChange={(event) => setRetention(event.currentTarget.value)}
          hint={`Empty keeps the space’s retention (${spaceRetentionDays} days); a longer value is capped at it.`}
          error={errors.fields.retentionDays}
        />
      </div>
      <button className="button" type="submit" disabled={pending}>
        {pending ? 'Saving…' : 'Save changes'}
      </button>
    </form>
  );
}
