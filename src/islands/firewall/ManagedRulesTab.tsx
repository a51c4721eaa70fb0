import { useId } from 'react';
import {
  crsApplicationLabels,
  crsApplications,
  type ParanoiaLevel,
  paranoiaLevelMeanings,
  paranoiaLevels,
} from '../../../contract/constants/firewalls.ts';
import type { FirewallSettings } from '../../../contract/firewall-settings.ts';
import { $firewallCatalog, editDraft } from '../../stores/firewalls.ts';
import { errorAt, errorUnder, type FieldErrors } from '../shared/field-errors.ts';
import { Problem } from '../shared/Problem.tsx';
import { SelectField } from '../shared/SelectField.tsx';
import { useApi } from '../shared/use-api.ts';
import { NumberField } from './NumberField.tsx';

interface Props {
  readonly settings: FirewallSettings;
  readonly errors: FieldErrors;
}

const executingOptions = [
  { value: '', label: 'Same as the paranoia level' },
  ...paranoiaLevels.map((level) => ({ value: String(level), label: `Level ${level}` })),
];

/** Narrows a typed level. */
function parseLevel(value: string): ParanoiaLevel | undefined {
  return paranoiaLevels.find((level) => String(level) === value);
}

/** Paranoia level with what each means, executing level, anomaly thresholds, CRS groups and application packages. */
export function ManagedRulesTab({ settings, errors }: Props) {
  const rules = settings.managedRules;
  const catalog = useApi($firewallCatalog);
  const name = useId();
  const set = (next: Partial<FirewallSettings['managedRules']>): void =>
    editDraft('managedRules', { ...rules, ...next });
  const disabled = new Set(rules.disabledGroups);
  return (
    <>
      <fieldset className="sg-fw-item">
        <legend>Paranoia level</legend>
        {paranoiaLevels.map((level) => (
          <div key={level} className="sg-fw-choice">
            <input
              type="radio"
              id={`${name}-${level}`}
              name={`${name}-paranoia`}
              checked={rules.paranoiaLevel === level}
              onChange={() => set({ paranoiaLevel: level })}
            />
            <label htmlFor={`${name}-${level}`}>
              <strong>Level {level}.</strong> {paranoiaLevelMeanings[level]}
            </label>
          </div>
        ))}
        {errorAt(errors, 'managedRules.paranoiaLevel') && (
          <p className="field__error">{errorAt(errors, 'managedRules.paranoiaLevel')}</p>
        )}
      </fieldset>
      <div className="sg-fw-grid">
        <SelectField
          label="Executing paranoia level"
          options={executingOptions}
          value={rules.executingParanoiaLevel ? String(rules.executingParanoiaLevel) : ''}
          onChange={(event) => {
            const { executingParanoiaLevel: _old, ...rest } = rules;
            const level = parseLevel(event.currentTarget.value);
            editDraft('managedRules', level ? { ...rest, executingParanoiaLevel: level } : rest);
          }}
          hint="Higher than the paranoia level: the extra rules run and log, but do not add to the blocking score."
          error={errorAt(errors, 'managedRules.executingParanoiaLevel')}
        />
        <NumberField
          label="Inbound anomaly threshold"
          value={rules.inboundThreshold}
          onChange={(value) => set({ inboundThreshold: value })}
          hint="A request scoring this much is blocked in Block mode (CRS default 5)."
          error={errorAt(errors, 'managedRules.inboundThreshold')}
        />
        <NumberField
          label="Outbound anomaly threshold"
          value={rules.outboundThreshold}
          onChange={(value) => set({ outboundThreshold: value })}
          hint="A response scoring this much is blocked in Block mode (CRS default 4)."
          error={errorAt(errors, 'managedRules.outboundThreshold')}
        />
      </div>
      <fieldset className="sg-fw-item">
        <legend>Rule groups of the Core Rule Set</legend>
        {errorUnder(errors, 'managedRules.disabledGroups') && (
          <p className="field__error">Rule groups: {errorUnder(errors, 'managedRules.disabledGroups')}</p>
        )}
        {catalog.loaded.state === 'loading' && (
          <p className="muted" role="status">
            Loading the installed rule groups…
          </p>
        )}
        {catalog.loaded.state === 'error' && <Problem error={catalog.loaded.error} onRetry={catalog.retry} />}
        {catalog.loaded.state === 'ready' && (
          <>
            <p className="muted">
              OWASP CRS {catalog.loaded.data.version} as installed. Groups marked “always on” hold the rule set together
              and cannot be turned off.
            </p>
            <ul className="sg-fw-checks">
              {catalog.loaded.data.groups
                .filter((group) => !group.application)
                .map((group) => (
                  <li key={group.name}>
                    <input
                      type="checkbox"
                      id={`${name}-${group.name}`}
                      checked={!disabled.has(group.name)}
                      disabled={!group.optional}
                      onChange={(event) =>
                        set({
                          disabledGroups: event.currentTarget.checked
                            ? rules.disabledGroups.filter((other) => other !== group.name)
                            : [...rules.disabledGroups, group.name],
                        })
                      }
                    />
                    <label htmlFor={`${name}-${group.name}`}>
                      {group.title} <span className="muted sg-mono">{group.name}</span>
                      <span className="muted">
                        {' '}
                        · {group.ruleCount} rules{group.optional ? '' : ' · always on'}
                      </span>
                    </label>
                  </li>
                ))}
            </ul>
          </>
        )}
      </fieldset>
      <fieldset className="sg-fw-item">
        <legend>Application exclusion packages</legend>
        <p className="muted">The CRS’s own exclusions for these applications’ known false positives.</p>
        <ul className="sg-fw-checks">
          {crsApplications.map((application) => (
            <li key={application}>
              <input
                type="checkbox"
                id={`${name}-app-${application}`}
                checked={rules.applications.includes(application)}
                onChange={(event) =>
                  set({
                    applications: event.currentTarget.checked
                      ? [...rules.applications, application]
                      : rules.applications.filter((other) => other !== application),
                  })
                }
              />
              <label htmlFor={`${name}-app-${application}`}>{crsApplicationLabels[application]}</label>
            </li>
          ))}
        </ul>
        {errorUnder(errors, 'managedRules.applications') && (
          <p className="field__error">Applications: {errorUnder(errors, 'managedRules.applications')}</p>
        )}
      </fieldset>
    </>
  );
}
