import { type FormEvent, useEffect, useState } from 'react';
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
  readonly onApply: (filters: ActivityFilters) => void;
}

/** Actor, action, object type and time range; applied together with one button. */
export function ActivityFilterForm({ filters, members, onApply }: Props) {
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
      action: draft.action.trim(),
      objectType: draft.objectType.trim(),
      from: fromLocalInput(draft.from),
      to: fromLocalInput(draft.to),
    });
  };

  const actors = members.map((m) => ({ value: m.userId, label: `${m.name} (${m.email})` }));
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
        <Field
          label="Action"
          name="action"
          list="sg-activity-actions"
          placeholder="e.g. member.remove"
          autoComplete="off"
          value={draft.action}
          onChange={(event) => set('action')(event.currentTarget.value)}
        />
        <Field
          label="Object type"
          name="objectType"
          list="sg-activity-object-types"
          placeholder="e.g. member"
          autoComplete="off"
          value={draft.objectType}
          onChange={(event) => set('objectType')(event.currentTarget.value)}
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
      <datalist id="sg-activity-actions">
        {KNOWN_ACTIONS.map((action) => (
          <option key={action} value={action} />
        ))}
      </datalist>
      <datalist id="sg-activity-object-types">
        {KNOWN_OBJECT_TYPES.map((type) => (
          <option key={type} value={type} />
        ))}
      </datalist>
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
