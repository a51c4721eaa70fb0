import { useState } from 'react';
import type { CreatedSource, SourceKind } from '../../../contract/sources.ts';
import { api } from '../../lib/api.ts';
import { SelectField } from '../management/SelectField.tsx';
import { Alert } from '../shared/Alert.tsx';
import { Field } from '../shared/Field.tsx';
import { Form } from '../shared/Form.tsx';
import { FormProblem, text, useSubmit } from '../shared/use-submit.ts';
import { parseKind, SOURCE_KINDS } from './source-kinds.ts';

interface Props {
  readonly spaceId: string;
  readonly onCreated: (source: CreatedSource) => void;
}

/** Name and kind of a new log source; the API answers with its token, shown once by the caller. */
export function CreateSourceForm({ spaceId, onCreated }: Props) {
  const [name, setName] = useState('');
  const [kind, setKind] = useState<SourceKind>('modsecurity');
  const submit = useSubmit(async (form) => {
    const chosen = parseKind(text(form, 'kind'));
    if (!chosen) throw new FormProblem({ kind: 'Choose what the source sends.' });
    const created = await api<CreatedSource>(`/spaces/${spaceId}/sources`, {
      method: 'POST',
      body: { name: text(form, 'name'), kind: chosen },
    });
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
          onChange={(event) => setKind(parseKind(event.currentTarget.value) ?? 'modsecurity')}
          options={SOURCE_KINDS}
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
