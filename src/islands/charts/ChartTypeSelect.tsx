/** The chart type switcher: a labelled native select offering exactly the user-choosable types. */
import { type ChangeEvent, useId } from 'react';
import { CHART_TYPE_LABELS, CHART_TYPES, type ChartType, parseChartType } from './chart-types.ts';
import './Chart.css';

/** Props of the chart type switcher. */
export interface ChartTypeSelectProps {
  /** The selected Highcharts type. */
  readonly value: ChartType;
  /** Called with the newly chosen type. */
  readonly onChange: (type: ChartType) => void;
  /** Visible label; 'Chart type' by default. */
  readonly label?: string | undefined;
  /** Disables the select, e.g. while data loads. */
  readonly disabled?: boolean | undefined;
}

/** Lets a user pick Spline, AreaSpline, Line, Scatter, Column or Area. */
export function ChartTypeSelect({ value, onChange, label = 'Chart type', disabled = false }: ChartTypeSelectProps) {
  const id = useId();
  const change = (event: ChangeEvent<HTMLSelectElement>): void => onChange(parseChartType(event.target.value, value));
  return (
    <span className="sg-chart-type">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={change} disabled={disabled}>
        {CHART_TYPE_LABELS.map((name) => (
          <option key={name} value={CHART_TYPES[name]}>
            {name}
          </option>
        ))}
      </select>
    </span>
  );
}

export default ChartTypeSelect;
