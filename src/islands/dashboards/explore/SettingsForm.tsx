/** A dashboard's own settings in edit mode: title, description, default range and refresh, and its variables. */

import { type FormEvent, useState } from 'react';
import {
  type DashboardField,
  dashboardFieldLabels,
  dashboardLimits,
  refreshIntervals,
  variableFields,
  variableNamePattern,
} from '../../../../contract/constants/dashboards.ts';
import type { DashboardModel, TimeRange, Variable } from '../../../../contract/dashboards.ts';
import { Field } from '../../shared/Field.tsx';
import { SelectField } from '../../shared/SelectField.tsx';
import { rangeLabel, refreshLabel, relativeRanges } from '../requests.ts';

export type Settings = Pick<DashboardModel, 'title' | 'description' | 'timeRange' | 'refreshSeconds' | 'variables'>;

interface Props {
  readonly settings: Settings;
  /** The range the screen shows now, offered as the default. */
  readonly viewed: TimeRange;
  readonly onApply: (settings: Settings) => void;
  readonly onCancel: () => void;
}

export function SettingsForm({ settings, viewed, onApply, onCancel }: Props) {
  const [title, setTitle] = useState(settings.title);
  const [description, setDescription] = useState(settings.description ?? '');
  const ranges = [
    settings.timeRange,
    viewed,
    ...relativeRanges.map((option) => ({ from: option.from, to: 'now' })),
  ].filter(
    (range, index, all) => all.findIndex((other) => other.from === range.from && other.to === range.to) === index,
  );
  const [rangeIndex, setRangeIndex] = useState(0);
  const [refresh, setRefresh] = useState(settings.refreshSeconds);
  const [variables, setVariables] = useState<Variable[]>([...settings.variables]);
  const [name, setName] = useState('');
  const [field, setField] = useState<DashboardField>('country');
  const [multi, setMulti] = useState(false);
  const [problems, setProblems] = useState<Record<string, string>>({});

  const addVariable = (): void => {
    const trimmed = name.trim().replace(/^\$/, '');
    if (!variableNamePattern.test(trimmed)) {
      setProblems({ name: 'Start with a letter or _, then letters, digits or _ (at most 32), as country.' });
      return;
    }
    if (variables.some((variable) => variable.name === trimmed)) {
      setProblems({ name: `Another variable is named ${trimmed}.` });
      return;
    }
    if (variables.length >= dashboardLimits.variables) {
      setProblems({ name: `A dashboard has at most ${dashboardLimits.variables} variables.` });
      return;
    }
    setProblems({});
    setVariables([...variables, { name: trimmed, field, ...(multi ? { multi: true } : {}) }]);
    setName('');
  };

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    if (!title.trim()) {
      setProblems({ title: 'Give the dashboard a title.' });
      return;
    }
    const timeRange = ranges[rangeIndex] ?? settings.timeRange;
    onApply({
      title: title.trim(),
      ...(description.trim() ? { description: description.trim() } : {}),
      timeRange,
      refreshSeconds: refresh,
      variables,
    });
  };

  return (
    <form className="stack" onSubmit={submit} noValidate aria-label="Dashboard settings">
      <Field
        label="Title"
        name="title"
        value={title}
        onChange={(e) => setTitle(e.target.value)}
        error={problems.title}
        maxLength={dashboardLimits.title}
      />
      <Field
        label="Description"
        name="description"
        value={description}
        onChange={(e) => setDescription(e.target.value)}
        maxLength={dashboardLimits.description}
      />
      <SelectField
        label="Default time range"
        name="timeRange"
        value={String(rangeIndex)}
        onChange={(e) => setRangeIndex(Number(e.target.value))}
        options={ranges.map((range, index) => ({ value: String(index), label: rangeLabel(range) }))}
      />
      <SelectField
        label="Auto refresh"
        name="refresh"
        value={String(refresh)}
        onChange={(e) => setRefresh(Number(e.target.value) as Settings['refreshSeconds'])}
        options={refreshIntervals.map((seconds) => ({ value: String(seconds), label: refreshLabel(seconds) }))}
      />
      <fieldset className="plain-fieldset stack">
        <legend>Variables</legend>
        <p className="muted">
          Write $name in a widget's filter: it stands for the field with the values chosen at the top (every event when
          none is chosen).
        </p>
        {variables.length > 0 && (
          <ul className="sg-dash__variable-list">
            {variables.map((variable) => (
              <li key={variable.name}>
                <code>${variable.name}</code> {dashboardFieldLabels[variable.field]}
                {variable.multi ? ', several values' : ''}{' '}
                <button
                  aria-label={`Remove $${variable.name}`}
                  type="button"
                  className="button secondary"
                  onClick={() => setVariables(variables.filter((other) => other !== variable))}
                >
                  Remove
                </button>
              </li>
            ))}
          </ul>
        )}
        <div className="row">
          <Field
            label="Variable name"
            name="variableName"
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={problems.name}
            placeholder="country"
          />
          <SelectField
            label="Field"
            name="variableField"
            value={field}
            onChange={(e) => setField(e.target.value as DashboardField)}
            options={variableFields.map((value) => ({ value, label: dashboardFieldLabels[value] }))}
          />
          <label className="sg-dash__check">
            <input type="checkbox" checked={multi} onChange={(e) => setMulti(e.target.checked)} /> Several values
          </label>
          <button type="button" className="button secondary" onClick={addVariable}>
            Add variable
          </button>
        </div>
      </fieldset>
      <div className="row">
        <button type="submit" className="button">
          Apply
        </button>
        <button type="button" className="button secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
