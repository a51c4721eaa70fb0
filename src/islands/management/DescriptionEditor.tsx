import { useId, useState } from 'react';
import { LazyMarkdown } from '../markdown/LazyMarkdown.tsx';

interface Props {
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly error?: string | undefined;
}

/** The space description in Markdown, with a Write/Preview switch; the preview renders like everywhere else. */
export function DescriptionEditor({ value, onChange, error }: Props) {
  const id = useId();
  const [mode, setMode] = useState<'write' | 'preview'>('write');
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className="field">
      {mode === 'write' ? (
        <label htmlFor={id}>Description</label>
      ) : (
        <span className="sg-label" id={`${id}-label`}>
          Description
        </span>
      )}
      {/* biome-ignore lint/a11y/useSemanticElements: two toggle buttons, not a form section */}
      <div className="sg-tabs" role="group" aria-label="Description editor mode">
        <button
          type="button"
          className="button secondary"
          aria-pressed={mode === 'write'}
          onClick={() => setMode('write')}
        >
          Write
        </button>
        <button
          type="button"
          className="button secondary"
          aria-pressed={mode === 'preview'}
          onClick={() => setMode('preview')}
        >
          Preview
        </button>
      </div>
      {mode === 'write' ? (
        <textarea
          id={id}
          className="input"
          rows={8}
          value={value}
          onChange={(event) => onChange(event.currentTarget.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={[hintId, error ? errorId : ''].filter(Boolean).join(' ')}
        />
      ) : (
        <section className="sg-description-preview" aria-labelledby={`${id}-label`}>
          {value.trim() === '' ? <p className="muted">Nothing to preview yet.</p> : <LazyMarkdown source={value} />}
        </section>
      )}
      <p className="field__hint" id={hintId}>
        Markdown (GitHub flavour); raw HTML is not rendered.
      </p>
      {error && (
        <p className="field__error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}
