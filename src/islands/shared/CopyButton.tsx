import { useEffect, useRef, useState } from 'react';

interface Props {
  /** What goes on the clipboard. */
  readonly text: string;
  /** Visible label, e.g. "Copy token". */
  readonly label: string;
}

/** How long "Copied!" stays, as in the JSON viewer. */
const COPIED_MS = 2000;

type CopyState = 'idle' | 'copied' | 'failed';

/** Copies one text to the clipboard and says so politely; a refusing clipboard is named, not silent. */
export function CopyButton({ text, label }: Props) {
  const [state, setState] = useState<CopyState>('idle');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const show = (next: CopyState): void => {
    clearTimeout(timer.current);
    setState(next);
    timer.current = setTimeout(() => setState('idle'), next === 'copied' ? COPIED_MS : 6000);
  };
  const copy = (): void => {
    const clipboard = typeof navigator === 'undefined' ? undefined : navigator.clipboard;
    if (!clipboard) {
      show('failed');
      return;
    }
    clipboard.writeText(text).then(
      () => show('copied'),
      () => show('failed'),
    );
  };
  return (
    <span className="sg-copy">
      <button type="button" className="button secondary" onClick={copy}>
        {label}
      </button>
      <span className="sg-copy__status" role="status">
        {state === 'copied' && 'Copied!'}
        {state === 'failed' && 'The browser refused the clipboard: select the text and copy it by hand.'}
      </span>
    </span>
  );
}
