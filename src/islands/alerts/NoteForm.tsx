import { useState } from 'react';
import { alertLimits } from '../../../contract/constants/alerts.ts';
import { addAlertNote } from '../../stores/alerts.ts';
import { LazyMarkdown } from '../markdown/LazyMarkdown.tsx';
import { Alert } from '../shared/Alert.tsx';
import { Form } from '../shared/Form.tsx';
import { TextAreaField } from '../shared/TextAreaField.tsx';
import { useSubmit } from '../shared/use-submit.ts';

interface Props {
  readonly spaceId: string;
  readonly alertId: string;
  readonly onAdded: () => void;
}

/** A note on the alert in Markdown (GitHub flavour, no raw HTML), with a preview before it is added. */
export function NoteForm({ spaceId, alertId, onAdded }: Props) {
  const [body, setBody] = useState('');
  const [preview, setPreview] = useState(false);
  const submit = useSubmit(async () => {
    await addAlertNote(spaceId, alertId, body);
    setBody('');
    setPreview(false);
    onAdded();
  });
  return (
    <Form onSubmit={submit.onSubmit} pending={submit.pending} aria-label="Add a note" className="sg-al-note-form">
      {submit.error && <Alert tone="error">{submit.error}</Alert>}
      {preview ? (
        <section className="sg-al-note-preview" aria-label="Note preview">
          {body.trim() ? <LazyMarkdown source={body} /> : <p className="muted">Nothing to preview.</p>}
        </section>
      ) : (
        <TextAreaField
          label="Note"
          rows={4}
          value={body}
          maxLength={alertLimits.noteLength}
          hint="Markdown: **bold**, `code`, lists, tables and links; raw HTML is left out."
          error={submit.fields.body}
          onChange={(event) => setBody(event.currentTarget.value)}
        />
      )}
      <div className="row">
        <button type="button" className="button secondary" aria-pressed={preview} onClick={() => setPreview(!preview)}>
          {preview ? 'Edit' : 'Preview'}
        </button>
        <button type="submit" className="button" disabled={submit.pending}>
          {submit.pending ? 'Adding…' : 'Add note'}
        </button>
      </div>
    </Form>
  );
}
