import type { FirewallSettings } from '../../../contract/firewall-settings.ts';
import { editDraft } from '../../stores/firewalls.ts';
import { Field } from '../shared/Field.tsx';
import { errorAt, type FieldErrors, listError } from '../shared/field-errors.ts';
import { SelectField } from '../shared/SelectField.tsx';
import { modeOptions, parseMode } from './CreateFirewallForm.tsx';
import { ListArea } from './ListArea.tsx';

interface Props {
  readonly settings: FirewallSettings;
  readonly errors: FieldErrors;
}

/** Name, host names, upstream, mode and trusted proxies of the draft. */
export function GeneralTab({ settings, errors }: Props) {
  return (
    <div className="sg-fw-grid">
      <Field
        label="Name"
        maxLength={80}
        autoComplete="off"
        value={settings.name}
        onChange={(event) => editDraft('name', event.currentTarget.value)}
        error={errorAt(errors, 'name')}
      />
      <ListArea
        label="Host names"
        hint="One per line, such as shop.example.com or *.example.com."
        value={settings.hostnames}
        onChange={(items) => editDraft('hostnames', items)}
        error={listError(errors, 'hostnames')}
      />
      <Field
        label="Upstream"
        autoComplete="off"
        value={settings.upstream}
        onChange={(event) => editDraft('upstream', event.currentTarget.value)}
        hint="Where allowed requests go: http://host:port."
        error={errorAt(errors, 'upstream')}
      />
      <SelectField
        label="Mode"
        value={settings.mode}
        options={modeOptions}
        onChange={(event) => editDraft('mode', parseMode(event.currentTarget.value) ?? settings.mode)}
        hint="Off: no inspection. Detect only: rules log what they find. Block: requests over the threshold get 403."
        error={errorAt(errors, 'mode')}
      />
      <ListArea
        label="Trusted proxies"
        hint="CIDR ranges, one per line: X-Forwarded-For is believed only from these."
        value={settings.trustedProxies}
        onChange={(items) => editDraft('trustedProxies', items)}
        error={listError(errors, 'trustedProxies')}
      />
    </div>
  );
}
