import { useState } from 'react';
import { deleteSpace } from '../../stores/space.ts';
import { Alert } from '../shared/Alert.tsx';
import { Field } from '../shared/Field.tsx';
import { FormProblem, useSubmit } from '../shared/use-submit.ts';

interface Props {
  readonly spaceId: string;
  readonly spaceName: string;
  readonly onDeleted: () => void;
}

/** Deletes the space once its name is typed exactly (the API checks the same). */
export function DeleteSpace({ spaceId, spaceName, onDeleted }: Props) {
  const [typed, setTyped] = useState('');
  // Once deleted, the button stays busy while the next page opens.
  const [deleted, setDeleted] = useState(false);
  const matches = typed === spaceName;
  const { pending, error, fields, onSubmit } = useSubmit(
    async () => {
      if (!matches) throw new FormProblem({ confirmName: 'Type the name of the space exactly to delete it.' });
      await deleteSpace(spaceId, typed);
      setDeleted(true);
      onDeleted();
    },
    { fields: ['confirmName'] },
  );
  const busy = pending || deleted;

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate aria-busy={busy}>
      {error && <Alert tone="error">{error}</Alert>}
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
        error={fields.confirmName}
      />
      <button className="button danger" type="submit" disabled={!matches || busy}>
        {busy ? 'Deleting…' : 'Delete this space'}
      </button>
    </form>
  );
}
