import { useState } from 'react';
import { sourceKindOptions } from '../../../contract/constants/sources.ts';
import { parseSourceKind } from '../../../contract/source-kinds.ts';
import type { Source, SourceKind } from '../../../contract/sources.ts';
import { updateSource } from '../../stores/sources.ts';
import { Alert } from '../shared/Alert.tsx';
import { Field } from '../shared/Field.tsx';
import { SelectField } from '../shared/SelectField.tsx';
import { FormProblem, useSubmit } from '../shared/use-submit.ts';

interface Props {
  readonly source: Source;
  readonly spaceRetentionDays: number;
}

/** Name, kind and retention of a source, saved together; what was typed stays after an error. */
export function SourceEditForm({ source, spaceRetentionDays }: Props) {
  const [name, setName] = useState(source.name);
  const [kind, setKind] = useState<SourceKind>(source.kind);
  const [retention, setRetention] = useState(source.retentionDays === null ? '' : String(source.retentionDays));
  const [saved, setSaved] = useState(false);

  const { pending, error, fields, onSubmit } = useSubmit(async () => {
    setSaved(false);
    const typed = retention.trim();
    if (typed !== '' && !/^\d+$/.test(typed)) {
      throw new FormProblem({ retentionDays: 'Enter a whole number of days, or leave it empty.' });
    }
    await updateSource(source.spaceId, source.id, {
      name,
      kind,
      retentionDays: typed === '' ? null : Number(typed),
    });
    setSaved(true);
  });

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate aria-busy={pending} aria-label="Source settings">
      {error && <Alert tone="error">{error}</Alert>}
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
          error={fields.name}
        />
        <SelectField
          label="Kind"
          name="kind"
          value={kind}
          onChange={(event) => setKind(parseSourceKind(event.currentTarget.value) ?? source.kind)}
          options={sourceKindOptions}
          hint="Lines already stored keep how they were read."
          error={fields.kind}
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
          error={fields.retentionDays}
        />
      </div>
      <button className="button" type="submit" disabled={pending}>
        {pending ? 'Saving…' : 'Save changes'}
      </button>
    </form>
  );
}
