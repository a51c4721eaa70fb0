import { type DragEvent, useId, useState } from 'react';
import type { CustomRule, FirewallSettings } from '../../../contract/firewall-settings.ts';
import { editDraft } from '../../stores/firewalls.ts';
import { Field } from '../shared/Field.tsx';
import { errorAt, type FieldErrors } from '../shared/field-errors.ts';
import { SelectField } from '../shared/SelectField.tsx';
import { ConditionEditor } from './ConditionEditor.tsx';
import { actionOptions, parseRuleAction } from './condition-options.ts';
import { moveBy, moveTo, removeAt, replaceAt } from './list-edit.ts';

interface Props {
  readonly settings: FirewallSettings;
  readonly errors: FieldErrors;
  readonly editable: boolean;
}

/** A new rule: block requests whose path starts with /admin. */
const newRule = (count: number): CustomRule => ({
  name: `Rule ${count + 1}`,
  enabled: true,
  action: 'block',
  conditions: [{ field: 'path', operator: 'startsWith', value: '/admin' }],
});

/** Where a drag of a rule by its handle stands: the rule dragged and the rule it is over. */
type Dragging = { from: number; over: number | null } | null;

/** Custom rules, checked in order before the Core Rule Set: conditions ANDed, an action, on or off. */
export function CustomRulesTab({ settings, errors, editable }: Props) {
  const list = settings.customRules;
  const set = (index: number, rule: CustomRule): void => editDraft('customRules', replaceAt(list, index, rule));
  const [dragging, setDragging] = useState<Dragging>(null);
  /** Drag and drop by a rule's handle (the mouse's way; the Move buttons are the keyboard's). */
  const dragProps = (index: number): DragProps => ({
    dropTarget: dragging !== null && dragging.over === index && dragging.from !== index,
    onHandleDragStart: (event) => {
      event.dataTransfer?.setData('text/plain', String(index + 1));
      if (event.dataTransfer) event.dataTransfer.effectAllowed = 'move';
      setDragging({ from: index, over: null });
    },
    onDragOver: (event) => {
      if (dragging === null) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'move';
      if (dragging.over !== index) setDragging({ ...dragging, over: index });
    },
    onDrop: (event) => {
      if (dragging === null) return;
      event.preventDefault();
      if (dragging.from !== index) editDraft('customRules', moveTo(list, dragging.from, index));
      setDragging(null);
    },
    onDragEnd: () => setDragging(null),
  });
  return (
    <>
      <p className="muted">
        Checked in this order before the Core Rule Set; the first rule whose conditions all match decides. Allow ends
        the inspection of the request.
        {editable ? ' Reorder by dragging a rule by its handle, or with its buttons.' : ''}
      </p>
      {errorAt(errors, 'customRules') && <p className="field__error">Custom rules: {errorAt(errors, 'customRules')}</p>}
      {list.length === 0 && <p className="sg-empty">No custom rules. Add one to block, allow or log by condition.</p>}
      {list.map((rule, index) => (
        <RuleEditor
          // biome-ignore lint/suspicious/noArrayIndexKey: a new rule has no id until saved; the position is what the API names
          key={index}
          rule={rule}
          index={index}
          count={list.length}
          errors={errors}
          editable={editable}
          onChange={(next) => set(index, next)}
          onMove={(by) => editDraft('customRules', moveBy(list, index, by))}
          onRemove={() => editDraft('customRules', removeAt(list, index))}
          drag={editable && list.length > 1 ? dragProps(index) : null}
        />
      ))}
      {editable && (
        <div className="row">
          <button
            type="button"
            className="button secondary"
            onClick={() => editDraft('customRules', [...list, newRule(list.length)])}
          >
            Add a custom rule
          </button>
        </div>
      )}
    </>
  );
}

/** What a rule's fieldset and handle do in a drag: the handle starts it, any rule takes the drop. */
interface DragProps {
  /** True while the dragged rule is over this one (it would land here). */
  readonly dropTarget: boolean;
  readonly onHandleDragStart: (event: DragEvent<HTMLElement>) => void;
  readonly onDragOver: (event: DragEvent<HTMLElement>) => void;
  readonly onDrop: (event: DragEvent<HTMLElement>) => void;
  readonly onDragEnd: () => void;
}

interface RuleProps {
  readonly rule: CustomRule;
  readonly index: number;
  readonly count: number;
  readonly errors: FieldErrors;
  readonly editable: boolean;
  readonly onChange: (rule: CustomRule) => void;
  readonly onMove: (by: number) => void;
  readonly onRemove: () => void;
  /** Drag and drop, when the rules can be reordered. */
  readonly drag: DragProps | null;
}

/** One custom rule: name, on or off, action, its conditions, and its place in the order. */
function RuleEditor({ rule, index, count, errors, editable, onChange, onMove, onRemove, drag }: RuleProps) {
  const enabledId = useId();
  const path = `customRules.${index}`;
  const title = `Rule ${index + 1}: ${rule.name}`;
  return (
    <fieldset
      className={drag?.dropTarget ? 'sg-fw-item sg-fw-item--drop' : 'sg-fw-item'}
      onDragOver={drag?.onDragOver}
      onDrop={drag?.onDrop}
    >
      <legend>
        {drag && (
          // The mouse's way to reorder; hidden from assistive technology, whose way is the Move buttons.
          <span
            className="sg-fw-drag"
            draggable
            aria-hidden="true"
            title={`Drag rule ${index + 1} to another place`}
            onDragStart={drag.onHandleDragStart}
            onDragEnd={drag.onDragEnd}
          >
            ⠿
          </span>
        )}
        {title}
        {rule.enabled ? '' : ' (off)'}
        {rule.id ? <span className="muted"> · id {rule.id}</span> : null}
      </legend>
      <div className="sg-fw-grid">
        <Field
          label="Name"
          value={rule.name}
          maxLength={80}
          onChange={(event) => onChange({ ...rule, name: event.currentTarget.value })}
          error={errorAt(errors, `${path}.name`)}
        />
        <SelectField
          label="Action"
          options={actionOptions}
          value={rule.action}
          onChange={(event) => onChange({ ...rule, action: parseRuleAction(event.currentTarget.value) ?? rule.action })}
          error={errorAt(errors, `${path}.action`)}
        />
      </div>
      <div className="sg-fw-choice">
        <input
          type="checkbox"
          id={enabledId}
          checked={rule.enabled}
          onChange={(event) => onChange({ ...rule, enabled: event.currentTarget.checked })}
        />
        <label htmlFor={enabledId}>Enabled</label>
      </div>
      {rule.conditions.map((condition, at) => (
        <ConditionEditor
          // biome-ignore lint/suspicious/noArrayIndexKey: conditions have no id; the position is what the API names
          key={at}
          condition={condition}
          path={`${path}.conditions.${at}`}
          label={at === 0 ? 'Condition 1' : `Condition ${at + 1} (AND)`}
          errors={errors}
          onChange={(next) => onChange({ ...rule, conditions: replaceAt(rule.conditions, at, next) })}
          onRemove={
            editable && rule.conditions.length > 1
              ? () => onChange({ ...rule, conditions: removeAt(rule.conditions, at) })
              : null
          }
        />
      ))}
      {errorAt(errors, `${path}.conditions`) && (
        <p className="field__error">Conditions: {errorAt(errors, `${path}.conditions`)}</p>
      )}
      {editable && (
        <div className="row">
          <button
            type="button"
            className="button secondary"
            onClick={() =>
              onChange({
                ...rule,
                conditions: [...rule.conditions, { field: 'method', operator: 'equals', value: 'POST' }],
              })
            }
          >
            Add a condition (AND) to rule {index + 1}
          </button>
          <button type="button" className="button secondary" disabled={index === 0} onClick={() => onMove(-1)}>
            Move rule {index + 1} up
          </button>
          <button type="button" className="button secondary" disabled={index === count - 1} onClick={() => onMove(1)}>
            Move rule {index + 1} down
          </button>
          <button type="button" className="button secondary" onClick={onRemove}>
            Remove rule {index + 1}
          </button>
        </div>
      )}
    </fieldset>
  );
}
