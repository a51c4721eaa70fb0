/** The dashboard's variables as choices at the top: each lists its field's most frequent values in the time range. */
import { useId, useMemo } from 'react';
import { dashboardFieldLabels } from '../../../../contract/constants/dashboards.ts';
import type { VariableValues } from '../../../../contract/dashboard-rules.ts';
import type { TimeRange, Variable, WidgetQueryBody } from '../../../../contract/dashboards.ts';
import { rangeInstants } from '../requests.ts';
import { useWidgetResult } from './use-widget-result.ts';

interface Props {
  readonly spaceId: string;
  readonly variables: readonly Variable[];
  readonly range: TimeRange;
  readonly now: number;
  readonly values: VariableValues;
  readonly onChange: (name: string, values: string[]) => void;
}

export function VariableBar({ spaceId, variables, range, now, values, onChange }: Props) {
  if (variables.length === 0) return null;
  return (
    <fieldset className="sg-dash__variables plain-fieldset">
      <legend className="visually-hidden">Variables</legend>
      {variables.map((variable) => (
        <VariableChoice
          key={variable.name}
          spaceId={spaceId}
          variable={variable}
          range={range}
          now={now}
          chosen={values[variable.name] ?? []}
          onChange={(next) => onChange(variable.name, next)}
        />
      ))}
    </fieldset>
  );
}

function VariableChoice({
  spaceId,
  variable,
  range,
  now,
  chosen,
  onChange,
}: {
  spaceId: string;
  variable: Variable;
  range: TimeRange;
  now: number;
  chosen: readonly string[];
  onChange: (values: string[]) => void;
}) {
  const id = useId();
  const request = useMemo<WidgetQueryBody>(
    () => ({
      query: { metric: 'count', groupBy: { kind: 'field', field: variable.field, limit: 100 }, filter: '' },
      ...rangeInstants(range, now),
    }),
    [variable.field, range, now],
  );
  const { state } = useWidgetResult(spaceId, request);
  const found = state.status === 'ready' ? (state.result.series[0]?.data ?? []).map(([x]) => String(x)) : [];
  // Chosen values stay listed even when the range no longer has them.
  const options = [...chosen.filter((value) => !found.includes(value)), ...found];
  const label = `$${variable.name} (${dashboardFieldLabels[variable.field]})`;

  if (!variable.multi)
    return (
      <span className="sg-dash__variable">
        <label htmlFor={id}>{label}</label>
        <select
          id={id}
          value={chosen[0] ?? ''}
          onChange={(event) => onChange(event.target.value ? [event.target.value] : [])}
        >
          <option value="">All</option>
          {options.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </select>
      </span>
    );
  return (
    <details className="sg-dash__variable sg-dash__variable--multi">
      <summary>
        {label}: {chosen.length === 0 ? 'All' : chosen.join(', ')}
      </summary>
      <fieldset className="plain-fieldset">
        <legend className="visually-hidden">{label}</legend>
        {state.status === 'loading' && <p role="status">Loading values…</p>}
        {options.length === 0 && state.status === 'ready' && <p className="muted">No values in this time range.</p>}
        {options.map((value) => (
          <label key={value} className="sg-dash__check">
            <input
              type="checkbox"
              checked={chosen.includes(value)}
              onChange={(event) =>
                onChange(event.target.checked ? [...chosen, value] : chosen.filter((other) => other !== value))
              }
            />
            {value}
          </label>
        ))}
        {chosen.length > 0 && (
          <button type="button" className="button secondary" onClick={() => onChange([])}>
            All values
          </button>
        )}
      </fieldset>
    </details>
  );
}
