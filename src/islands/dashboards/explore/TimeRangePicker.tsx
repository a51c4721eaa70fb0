/** The dashboard's time range: the usual relative ranges, or two absolute dates (UTC). */
import { type FormEvent, useEffect, useId, useState } from 'react';
import type { TimeRange } from '../../../../contract/dashboards.ts';
import { fromLocalInput, rangeInstants, relativeRanges, toLocalInput } from '../requests.ts';

interface Props {
  readonly range: TimeRange;
  readonly onChange: (range: TimeRange) => void;
}

const CUSTOM = 'custom';

export function TimeRangePicker({ range, onChange }: Props) {
  const id = useId();
  const relative = relativeRanges.find((option) => option.from === range.from && range.to === 'now');
  const [custom, setCustom] = useState(!relative);
  const [from, setFrom] = useState(() => toLocalInput(rangeInstants(range, Date.now()).from));
  const [to, setTo] = useState(() => toLocalInput(rangeInstants(range, Date.now()).to));
  const [problem, setProblem] = useState<string | null>(null);

  // A zoom or another change from outside shows its dates here.
  useEffect(() => {
    const instants = rangeInstants(range, Date.now());
    setFrom(toLocalInput(instants.from));
    setTo(toLocalInput(instants.to));
    if (!relativeRanges.some((option) => option.from === range.from && range.to === 'now')) setCustom(true);
  }, [range]);

  const apply = (event: FormEvent): void => {
    event.preventDefault();
    const start = fromLocalInput(from);
    const end = fromLocalInput(to);
    if (!start) {
      setProblem('Give the start of the range.');
      return;
    }
    if (!end) {
      setProblem('Give the end of the range.');
      return;
    }
    if (Date.parse(start) >= Date.parse(end)) {
      setProblem('The start of the range must be before its end.');
      return;
    }
    setProblem(null);
    onChange({ from: start, to: end });
  };

  return (
    <div className="sg-dash__range">
      <label htmlFor={id}>Time range</label>
      <select
        id={id}
        value={custom ? CUSTOM : (relative?.from ?? CUSTOM)}
        onChange={(event) => {
          if (event.target.value === CUSTOM) {
            setCustom(true);
            return;
          }
          setCustom(false);
          onChange({ from: event.target.value, to: 'now' });
        }}
      >
        {relativeRanges.map((option) => (
          <option key={option.from} value={option.from}>
            {option.label}
          </option>
        ))}
        <option value={CUSTOM}>Custom dates (UTC)…</option>
      </select>
      {custom && (
        <form className="sg-dash__custom-range" onSubmit={apply} aria-label="Custom time range" noValidate>
          <label>
            From (UTC)
            <input type="datetime-local" value={from} onChange={(event) => setFrom(event.target.value)} required />
          </label>
          <label>
            To (UTC)
            <input type="datetime-local" value={to} onChange={(event) => setTo(event.target.value)} required />
          </label>
          <button type="submit" className="button secondary">
            Apply range
          </button>
          {problem && (
            <p className="alert alert--error" role="alert">
              {problem}
            </p>
          )}
        </form>
      )}
    </div>
  );
}
