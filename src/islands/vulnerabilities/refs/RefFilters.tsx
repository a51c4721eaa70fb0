import { useEffect, useState } from 'react';
import { ecosystems, vulnSeverities, vulnSeverityLabels } from '../../../../contract/constants/vulns.ts';
import { SelectField } from '../../shared/SelectField.tsx';
import { emptyFilters, type RefsFilters } from './refs-url.ts';

const dates = [
  ['modifiedFrom', 'Modified from'],
  ['modifiedTo', 'Modified to'],
] as const;

interface Props {
  readonly filters: RefsFilters;
  readonly onChange: (filters: RefsFilters) => void;
}

/** The search box and filters: applied on Search (the selects and dates at once); kept in the URL by the screen. */
export function RefFilters({ filters, onChange }: Props) {
  const [draft, setDraft] = useState(filters);
  useEffect(() => setDraft(filters), [filters]);
  const set = (name: keyof RefsFilters, value: string, now = false) => {
    const next = { ...draft, [name]: value };
    setDraft(next);
    if (now) onChange(next);
  };
  return (
    <form
      className="sg-vr-filters"
      aria-label="Search the library"
      onSubmit={(event) => {
        event.preventDefault();
        onChange(draft);
      }}
    >
      <div className="field sg-vr-q">
        <label htmlFor="sg-vr-q">Id, alias, package or words</label>
        <input
          id="sg-vr-q"
          type="search"
          value={draft.q}
          maxLength={200}
          placeholder="CVE-2024-34064, jinja2, prototype pollution"
          onChange={(event) => set('q', event.currentTarget.value)}
        />
      </div>
      <SelectField
        label="Ecosystem"
        value={draft.ecosystem}
        options={[{ value: '', label: 'Any ecosystem' }, ...ecosystems.map((name) => ({ value: name, label: name }))]}
        onChange={(event) => set('ecosystem', event.currentTarget.value, true)}
      />
      <SelectField
        label="Severity"
        value={draft.severity}
        options={[
          { value: '', label: 'Any severity' },
          ...vulnSeverities.map((severity) => ({ value: severity, label: vulnSeverityLabels[severity] })),
        ]}
        onChange={(event) => set('severity', event.currentTarget.value, true)}
      />
      {dates.map(([name, label]) => (
        <div className="field" key={name}>
          <label htmlFor={`sg-vr-${name}`}>{label}</label>
          <input
            id={`sg-vr-${name}`}
            type="date"
            value={draft[name]}
            onChange={(event) => set(name, event.currentTarget.value, true)}
          />
        </div>
      ))}
      <div className="row sg-vr-filter-actions">
        <button type="submit" className="button">
          Search
        </button>
        <button type="button" className="button secondary" onClick={() => onChange(emptyFilters)}>
          Clear
        </button>
      </div>
    </form>
  );
}
