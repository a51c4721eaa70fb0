import { type FormEvent, useEffect, useState } from 'react';
import type { ActivityChoices } from '../../../contract/activity.ts';
import type { Member } from '../../../contract/members.ts';
import { Field } from '../shared/Field.tsx';
import { SelectField } from '../shared/SelectField.tsx';
import {
  type ActivityFilters,
  fromLocalInput,
  hasFilters,
  KNOWN_ACTIONS,
  KNOWN_OBJECT_TYPES,
  NO_FILTERS,
  toLocalInput,
} from './activity-filters.ts';

interface Props {
  readonly filters: ActivityFilters;
  readonly members: readonly Member[];
  /** What the log holds, once read; until then (or when it cannot be read) the known action and object names. */
  readonly choices: ActivityChoices | null;
  readonly onApply: (filters: ActivityFilters) => void;
}

/** The options of a pick list: "any" first, then the values, with the applied one kept when the list lacks it. */
function pickList(any: string, values: readonly string[], applied: string): { value: string; label: string }[] {
  const all = applied && !values.includes(applied) ? [...values, applied] : values;
  return [{ value: '', label: any }, ...all.map((value) => ({ value, label: value }))];
}

/** Actor, action, object type (each picked from what the log holds) and time range; applied with one button. */
export function ActivityFilterForm({ filters, members, choices, onApply }: Props) {
  const [draft, setDraft] = useState(() => ({
    ...filters,
    from: toLocalInput(filters.from),
    to: toLocalInput(filters.to),
  }));
  // When the applied filters change from outside (Clear), the form follows.
  useEffect(() => {
    setDraft({ ...filters, from: toLocalInput(filters.from), to: toLocalInput(filters.to) });
  }, [filters]);
  const set = (key: keyof ActivityFilters) => (value: string) => setDraft((d) => ({ ...d, [key]: value }));

  const submit = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    onApply({
      actor: draft.actor,
      action: draft.action,
      objectType: draft.objectType,
      from: fromLocalInput(draft.from),
      to: fromLocalInput(draft.to),
    });
  };

  const actors = members.map((m) => ({ value: m.userId, label: `${m.name} (${m.email})` }));
  // People in the log who are no longer members, by the name it recorded.
  for (const actor of choices?.actors ?? []) {
    if (!actors.some((a) => a.value === actor.id))
      actors.push({ value: actor.id, label: `${actor.name ?? actor.id.slice(0, 8)} (former member)` });
  }
  if (filters.actor && !actors.some((a) => a.value === filters.actor)) {
    actors.push({ value: filters.actor, label: `Former member (${filters.actor.slice(0, 8)}…)` });
  }

  return (
    <form className="card panel" onSubmit={submit} aria-label="Activity filters">
      <div className="sg-filters">
        <SelectField
          label="Actor"
          name="actor"
          value={draft.actor}
          onChange={(event) => set('actor')(event.currentTarget.value)}
          options={[{ value: '', label: 'Anyone' }, ...actors]}
        />
        <SelectField
          label="Action"
          name="action"
          value={draft.action}
          onChange={(event) => set('action')(event.currentTarget.value)}
          options={pickList('Any action', choices?.actions ?? KNOWN_ACTIONS, draft.action)}
        />
        <SelectField
          label="Object type"
          name="objectType"
          value={draft.objectType}
          onChange={(event) => set('objectType')(event.currentTarget.value)}
          options={pickList('Any object type', choices?.objectTypes ?? KNOWN_OBJECT_TYPES, draft.objectType)}
        />
        <Field
          label="From"
          name="from"
          type="datetime-local"
          value={draft.from}
          onChange={(event) => set('from')(event.currentTarget.value)}
        />
        <Field
          label="To"
          name="to"
          type="datetime-local"
          value={draft.to}
          onChange={(event) => set('to')(event.currentTarget.value)}
        />
      </div>
      <div className="row">
        <button className="button" type="submit">
          Apply filters
        </button>
        {hasFilters(filters) && (
          <button className="button secondary" type="button" onClick={() => onApply(NO_FILTERS)}>
            Clear filters
          </button>
        )}
      </div>
    </form>
  );
}
