import { useState } from 'react';
import { sourceKindOptions } from '../../../contract/constants/sources.ts';
import { parseSourceKind } from '../../../contract/source-kinds.ts';
import type { CreatedSource, SourceKind } from '../../../contract/sources.ts';
import { createSource } from '../../stores/sources.ts';
import { Alert } from '../shared/Alert.tsx';
import { Field } from '../shared/Field.tsx';
import { Form } from '../shared/Form.tsx';
import { SelectField } from '../shared/SelectField.tsx';
import { FormProblem, text, useSubmit } from '../shared/use-submit.ts';

interface Props {
  readonly spaceId: string;
  readonly onCreated: (source: CreatedSource) => void;
}

/** Name and kind of a new log source; the API answers with its token, shown once by the caller. */
export function CreateSourceForm({ spaceId, onCreated }: Props) {
  const [name, setName] = useState('');
  const [kind, setKind] = useState<SourceKind>('modsecurity');
  const submit = useSubmit(async (form) => {
    const chosen = parseSourceKind(text(form, 'kind'));
    if (!chosen) throw new FormProblem({ kind: 'Choose what the source sends.' });
    const created = await createSource(spaceId, { name: text(form, 'name'), kind: chosen });
    setName('');
    onCreated(created);
  });
  return (
    <Form onSubmit={submit.onSubmit} pending={submit.pending} aria-label="Add a log source">
      {submit.error && <Alert tone="error">{submit.error}</Alert>}
      <div className="sg-source-fields">
        <Field
          label="Name"
          name="name"
          required
          maxLength={80}
          autoComplete="off"
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          hint="For example the host or application that sends the events."
          error={submit.fields.name}
        />
        <SelectField
          label="Kind"
          name="kind"
          value={kind}
          onChange={(event) => setKind(parseSourceKind(event.currentTarget.value) ?? 'modsecurity')}
          options={sourceKindOptions}
          hint="What each line the source sends looks like."
          error={submit.fields.kind}
        />
      </div>
      <button className="button" type="submit" disabled={submit.pending}>
        {submit.pending ? 'Creating…' : 'Create source'}
      </button>
    </Form>
  );
}
