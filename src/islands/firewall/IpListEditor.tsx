import { useId, useState } from 'react';
import type { IpEntry } from '../../../contract/firewall-settings.ts';
import { editDraft } from '../../stores/firewalls.ts';
import { Field } from '../shared/Field.tsx';
import { errorAt, errorUnder, type FieldErrors } from '../shared/field-errors.ts';
import { dateTime } from '../shared/format.ts';
import { TableScroll } from '../shared/TableScroll.tsx';
import { TextAreaField } from '../shared/TextAreaField.tsx';
import { mergeEntries, parsePaste } from './ip-paste.ts';
import { removeAt } from './list-edit.ts';

interface Props {
  readonly listKey: 'ipAllow' | 'ipDeny';
  readonly title: string;
  readonly description: string;
  readonly entries: readonly IpEntry[];
  readonly errors: FieldErrors;
  readonly editable: boolean;
}

// Long lists are shown in part: the table stays usable and the rest is counted.
const SHOWN = 200;

/** One IP list: its entries (address or range, comment, expiry) with a count, and many added at once by pasting. */
export function IpListEditor({ listKey, title, description, entries, errors, editable }: Props) {
  const [text, setText] = useState('');
  const [expires, setExpires] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [added, setAdded] = useState<string | null>(null);
  const headingId = useId();

  const add = (): void => {
    const expiresAt = expires ? new Date(expires).toISOString() : undefined;
    const result = parsePaste(text, expiresAt);
    if (result.entries.length === 0 && result.bad.length === 0) {
      setProblem('Addresses: enter at least one IP address or CIDR range.');
      return;
    }
    editDraft(listKey, mergeEntries(entries, result.entries));
    setAdded(result.entries.length > 0 ? `${result.entries.length} added to the draft.` : null);
    if (result.bad.length > 0) {
      setProblem(
        `Addresses: ${result.bad.length} line${result.bad.length === 1 ? '' : 's'} not added, left in the box: ${result.bad
          .map((bad) => `line ${bad.line}: ${bad.message}`)
          .join(' ')}`,
      );
      setText(result.bad.map((bad) => bad.text).join('\n'));
    } else {
      setProblem(null);
      setText('');
    }
  };

  return (
    <section className="sg-fw-item" aria-labelledby={headingId}>
      <h3 id={headingId}>
        {title}{' '}
        <span className="muted">
          ({entries.length.toLocaleString('en')} {entries.length === 1 ? 'entry' : 'entries'})
        </span>
      </h3>
      <p className="muted">{description}</p>
      {errorAt(errors, listKey) && (
        <p className="field__error">
          {title}: {errorAt(errors, listKey)}
        </p>
      )}
      {entries.length === 0 ? (
        <p className="sg-empty">No entries.</p>
      ) : (
        <TableScroll label={`${title} table`}>
          <table className="data" aria-label={title}>
            <thead>
              <tr>
                <th scope="col">Address or range</th>
                <th scope="col">Comment</th>
                <th scope="col">Expires</th>
                {editable && <th scope="col">Remove</th>}
              </tr>
            </thead>
            <tbody>
              {entries.slice(0, SHOWN).map((entry, index) => {
                const error = errorUnder(errors, `${listKey}.${index}`);
                return (
                  <tr key={entry.cidr}>
                    <th scope="row" className="sg-mono">
                      {entry.cidr}
                      {error && <span className="field__error"> {error}</span>}
                    </th>
                    <td>{entry.comment ?? ''}</td>
                    <td>{entry.expiresAt ? dateTime(entry.expiresAt) : 'never'}</td>
                    {editable && (
                      <td>
                        <button
                          type="button"
                          className="button secondary"
                          aria-label={`Remove ${entry.cidr} from ${title}`}
                          onClick={() => editDraft(listKey, removeAt(entries, index))}
                        >
                          Remove
                        </button>
                      </td>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableScroll>
      )}
      {entries.length > SHOWN && (
        <p className="muted">
          Showing the first {SHOWN} of {entries.length.toLocaleString('en')} entries.
        </p>
      )}
      {editable && (
        <div className="sg-fw-paste">
          <TextAreaField
            label={`Add to ${title}`}
            hint="One address or CIDR range per line, optionally followed by a comment: 203.0.113.7 office."
            rows={4}
            spellCheck={false}
            value={text}
            error={problem ?? undefined}
            onChange={(event) => setText(event.currentTarget.value)}
          />
          <Field
            label="Expires (optional)"
            type="datetime-local"
            value={expires}
            onChange={(event) => setExpires(event.currentTarget.value)}
            hint="For every address added now."
          />
          <div className="row">
            <button type="button" className="button secondary" onClick={add}>
              Add to {title}
            </button>
            <span role="status">{added}</span>
          </div>
        </div>
      )}
    </section>
  );
}
