import { type FormEvent, useState } from 'react';
import { api } from '../../lib/api.ts';
import { Alert } from '../shared/Alert.tsx';
import { Field } from '../shared/Field.tsx';
import { type FormErrors, formErrors, NO_ERRORS } from '../shared/form-errors.ts';

interface Props {
  readonly spaceId: string;
  readonly spaceName: string;
  readonly onDeleted: () => void;
}

/** Deletes the space once its name is typed exactly (the API checks the same). */
export function DeleteSpace({ spaceId, spaceName, onDeleted }: Props) {
  const [typed, setTyped] = useState('');
  const [pending, setPending] = useState(false);
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const matches = typed === spaceName;

  const submit = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    if (!matches) {
      setErrors({ message: null, fields: { confirmName: 'Type the name of the space exactly to delete it.' } });
      return;
    }
    setPending(true);
    setErrors(NO_ERRORS);
    try {
      await api(`/spaces/${spaceId}`, { method: 'DELETE', body: { confirmName: typed } });
      onDeleted();
    } catch (error) {
      setErrors(formErrors(error, ['confirmName']));
      setPending(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-busy={pending}>
      {errors.message && <Alert tone="error">{errors.message}</Alert>}
      <p>
        This deletes the space and everything in it (firewalls, events, alerts, dashboards) for every member. It cannot
        be undone.
      </p>
      <Field
        label={`Type the name of the space, ${spaceName}, to confirm`}
        name="confirmName"
        autoComplete="off"
        spellCheck={false}
        value={typed}
        onChange={(event) => setTyped(event.currentTarget.value)}
        error={errors.fields.confirmName}
      />
      <button className="button danger" type="submit" disabled={!matches || pending}>
        {pending ? 'Deleting…' : 'Delete this space'}
      </button>
    </form>
  );
}
