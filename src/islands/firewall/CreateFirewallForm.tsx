import { useState } from 'react';
import { type FirewallMode, firewallModeLabels, firewallModes } from '../../../contract/constants/firewalls.ts';
import type { CreatedFirewall } from '../../../contract/firewalls.ts';
import { createFirewall } from '../../stores/firewalls.ts';
import { Alert } from '../shared/Alert.tsx';
import { Field } from '../shared/Field.tsx';
import { Form } from '../shared/Form.tsx';
import { listError } from '../shared/field-errors.ts';
import { SelectField } from '../shared/SelectField.tsx';
import { TextAreaField } from '../shared/TextAreaField.tsx';
import { useSubmit } from '../shared/use-submit.ts';
import { splitList } from './lines.ts';

interface Props {
  readonly spaceId: string;
  readonly onCreated: (firewall: CreatedFirewall) => void;
}

/** Mode choices with their labels, in the order the API lists them. */
export const modeOptions = firewallModes.map((mode) => ({ value: mode, label: firewallModeLabels[mode] }));

/** Narrows a select's value to a mode. */
export function parseMode(value: string): FirewallMode | null {
  return firewallModes.find((mode) => mode === value) ?? null;
}

/** Name, host names, upstream and mode of a new firewall; the API answers with its connector token, shown once by the caller. */
export function CreateFirewallForm({ spaceId, onCreated }: Props) {
  const [name, setName] = useState('');
  const [hostnames, setHostnames] = useState('');
  const [upstream, setUpstream] = useState('');
  const [mode, setMode] = useState<FirewallMode>('detect');
  const submit = useSubmit(async () => {
    const created = await createFirewall(spaceId, { name, hostnames: splitList(hostnames), upstream, mode });
    setName('');
    setHostnames('');
    setUpstream('');
    onCreated(created);
  });
  const fields = submit.fields;
  return (
    <Form onSubmit={submit.onSubmit} pending={submit.pending} aria-label="Create a firewall">
      {submit.error && <Alert tone="error">{submit.error}</Alert>}
      <div className="sg-source-fields">
        <Field
          label="Name"
          name="name"
          required
          maxLength={80}
          autoComplete="off"
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          hint="For example the site it protects."
          error={fields.name}
        />
        <TextAreaField
          label="Host names"
          name="hostnames"
          rows={2}
          value={hostnames}
          onChange={(event) => setHostnames(event.currentTarget.value)}
          hint="One per line, such as shop.example.com or *.example.com."
          error={listError(fields, 'hostnames')}
        />
        <Field
          label="Upstream"
          name="upstream"
          required
          autoComplete="off"
          value={upstream}
          placeholder="http://127.0.0.1:3000"
          onChange={(event) => setUpstream(event.currentTarget.value)}
          hint="Where allowed requests go: http://host:port."
          error={fields.upstream}
        />
        <SelectField
          label="Mode"
          name="mode"
          value={mode}
          onChange={(event) => setMode(parseMode(event.currentTarget.value) ?? 'detect')}
          options={modeOptions}
          hint="Detect only logs what the rules find; Block answers 403."
          error={fields.mode}
        />
      </div>
      <button className="button" type="submit" disabled={submit.pending}>
        {submit.pending ? 'Creating…' : 'Create firewall'}
      </button>
    </Form>
  );
}
