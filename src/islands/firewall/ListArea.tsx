import { useEffect, useState } from 'react';
import { TextAreaField } from '../shared/TextAreaField.tsx';
import { joinList, splitList } from './lines.ts';

interface Props {
  readonly label: string;
  readonly hint: string;
  readonly value: readonly string[];
  readonly onChange: (items: string[]) => void;
  readonly error?: string | undefined;
  readonly rows?: number;
}

/** A list edited as text, one item a line; what is typed stays as typed while the list follows it. */
export function ListArea({ label, hint, value, onChange, error, rows = 3 }: Props) {
  const [text, setText] = useState(() => joinList(value));
  // A change from outside (discard, reload after a conflict) replaces the text; the user's own typing does not.
  useEffect(() => {
    setText((typed) => (JSON.stringify(splitList(typed)) === JSON.stringify(value) ? typed : joinList(value)));
  }, [value]);
  return (
    <TextAreaField
      label={label}
      hint={hint}
      rows={rows}
      spellCheck={false}
      value={text}
      error={error}
      onChange={(event) => {
        setText(event.currentTarget.value);
        onChange(splitList(event.currentTarget.value));
      }}
    />
  );
}
