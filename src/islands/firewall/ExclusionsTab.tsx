import type { Exclusion, FirewallSettings } from '../../../contract/firewall-settings.ts';
import { editDraft } from '../../stores/firewalls.ts';
import { Field } from '../shared/Field.tsx';
import { errorAt, errorUnder, type FieldErrors } from '../shared/field-errors.ts';
import { optionalText, removeAt, replaceAt } from './list-edit.ts';
import { NumberField } from './NumberField.tsx';

interface Props {
  readonly settings: FirewallSettings;
  readonly errors: FieldErrors;
  readonly editable: boolean;
}

/** An exclusion with one optional key set or left out. */
function withKey(exclusion: Exclusion, key: 'target' | 'path' | 'method' | 'comment', text: string): Exclusion {
  const { [key]: _old, ...rest } = exclusion;
  const value = optionalText(text);
  return value === undefined ? rest : { ...rest, [key]: value };
}

/** False positives: a CRS rule switched off, optionally for one target, a path prefix and a method. */
export function ExclusionsTab({ settings, errors, editable }: Props) {
  const list = settings.exclusions;
  const set = (index: number, exclusion: Exclusion): void => editDraft('exclusions', replaceAt(list, index, exclusion));
  return (
    <>
      <p className="muted">
        Switch one Core Rule Set rule off where it misfires: for the whole site, or only for one target (such as
        ARGS:q), under a path prefix and for one method. The rules that score and block (949110, 959100, 980130, 980140)
        and the initialisation rules (901xxx) cannot be excluded.
      </p>
      {errorAt(errors, 'exclusions') && <p className="field__error">Exclusions: {errorAt(errors, 'exclusions')}</p>}
      {list.length === 0 && <p className="sg-empty">No exclusions. Add one when a rule blocks legitimate requests.</p>}
      {list.map((exclusion, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: exclusions have no id; the position is what the API names
        <fieldset key={index} className="sg-fw-item">
          <legend>
            Exclusion {index + 1}
            {exclusion.ruleId ? `: rule ${exclusion.ruleId}` : ''}
          </legend>
          <div className="sg-fw-grid">
            <NumberField
              label="Rule id"
              value={exclusion.ruleId}
              onChange={(value) => set(index, { ...exclusion, ruleId: value })}
              hint="A CRS rule id such as 942100."
              error={errorAt(errors, `exclusions.${index}.ruleId`)}
            />
            <Field
              label="Target (optional)"
              value={exclusion.target ?? ''}
              spellCheck={false}
              onChange={(event) => set(index, withKey(exclusion, 'target', event.currentTarget.value))}
              hint="ARGS:q, REQUEST_COOKIES:session or REQUEST_HEADERS:x-token; empty for the whole rule."
              error={errorAt(errors, `exclusions.${index}.target`)}
            />
            <Field
              label="Path prefix (optional)"
              value={exclusion.path ?? ''}
              spellCheck={false}
              onChange={(event) => set(index, withKey(exclusion, 'path', event.currentTarget.value))}
              hint="Such as /api/search; empty for every path."
              error={errorAt(errors, `exclusions.${index}.path`)}
            />
            <Field
              label="Method (optional)"
              value={exclusion.method ?? ''}
              onChange={(event) => set(index, withKey(exclusion, 'method', event.currentTarget.value))}
              hint="Such as POST; empty for every method."
              error={errorAt(errors, `exclusions.${index}.method`)}
            />
            <Field
              label="Comment (optional)"
              value={exclusion.comment ?? ''}
              onChange={(event) => set(index, withKey(exclusion, 'comment', event.currentTarget.value))}
              error={errorAt(errors, `exclusions.${index}.comment`)}
            />
          </div>
          {errorAt(errors, `exclusions.${index}`) && (
            <p className="field__error">{errorUnder(errors, `exclusions.${index}`)}</p>
          )}
          {editable && (
            <button
              type="button"
              className="button secondary"
              onClick={() => editDraft('exclusions', removeAt(list, index))}
            >
              Remove exclusion {index + 1}
            </button>
          )}
        </fieldset>
      ))}
      {editable && (
        <div className="row">
          <button
            type="button"
            className="button secondary"
            onClick={() => editDraft('exclusions', [...list, { ruleId: 0 }])}
          >
            Add an exclusion
          </button>
        </div>
      )}
    </>
  );
}
