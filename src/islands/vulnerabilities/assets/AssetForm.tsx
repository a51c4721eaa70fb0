import { useStore } from '@nanostores/react';
import { useRef, useState } from 'react';
import type { Asset, CreateAssetBody, UpdateAssetBody } from '../../../../contract/assets.ts';
import { assetKinds, vulnLimits } from '../../../../contract/constants/vulns.ts';
import { ApiError } from '../../../lib/api.ts';
import { createAsset, updateAsset } from '../../../stores/assets.ts';
import { $firewalls } from '../../../stores/firewalls.ts';
import { Alert } from '../../shared/Alert.tsx';
import { Field } from '../../shared/Field.tsx';
import { FieldFrame } from '../../shared/FieldFrame.tsx';
import { Form } from '../../shared/Form.tsx';
import { SelectField } from '../../shared/SelectField.tsx';
import { FormProblem, text, useSubmit } from '../../shared/use-submit.ts';
import { LINE_FORMAT, linesOfFields, readLines } from './component-lines.ts';
import { chosenFile, readSbomFile } from './sbom-file.ts';

interface Props {
  readonly spaceId: string;
  /** The asset edited, or null for a new one. */
  readonly asset: Asset | null;
  /** The typed text the components field starts from (an edit of a typed-in inventory starts from it). */
  readonly currentLines?: string;
  readonly onSaved: (asset: Asset, created: boolean) => void;
  readonly onCancel: () => void;
}

type InventoryMode = 'keep' | 'typed' | 'sbom';

const FIELDS = ['name', 'kind', 'environment', 'tags', 'firewallId', 'components', 'sbom'] as const;
const KIND_LABELS = { application: 'Application', host: 'Host' } as const;

/** Tags typed as "shop, pci": trimmed, empty ones dropped. */
function tagsOf(value: string): string[] {
  return value
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag.length > 0);
}

/**
 * The asset form: name, kind, environment, tags, the firewall in front of an application, and the inventory typed
 * one component a line or read from a CycloneDX JSON SBOM file. The API's messages are shown next to their fields.
 */
export function AssetForm({ spaceId, asset, currentLines = '', onSaved, onCancel }: Props) {
  const [kind, setKind] = useState<string>(asset?.kind ?? 'application');
  const [mode, setMode] = useState<InventoryMode>(asset ? 'keep' : 'typed');
  const fileInput = useRef<HTMLInputElement>(null);
  const [firewallId, setFirewallId] = useState(asset?.firewallId ?? '');
  const firewalls = useStore($firewalls);
  const listed = (firewalls.data?.items ?? []).map((f) => ({ value: f.id, label: f.name }));
  // The saved firewall stays chosen while the list loads (a save then would otherwise drop it).
  const firewallOptions = [
    { value: '', label: 'None' },
    ...(firewallId && !listed.some((f) => f.value === firewallId)
      ? [{ value: firewallId, label: 'The saved firewall' }]
      : []),
    ...listed,
  ];
  const submit = useSubmit(
    async (form) => {
      const fields = {
        name: text(form, 'name'),
        kind: text(form, 'kind') as Asset['kind'],
        tags: tagsOf(text(form, 'tags')),
        firewallId: kind === 'application' ? firewallId || null : null,
      };
      const environment = text(form, 'environment').trim();
      const inventory: Pick<CreateAssetBody, 'components' | 'sbom' | 'sbomFileName'> = {};
      let lines: number[] = [];
      if (mode === 'typed') {
        const read = readLines(text(form, 'components'));
        if ('problem' in read) throw new FormProblem({ components: read.problem });
        inventory.components = read.components;
        lines = read.lines;
      } else if (mode === 'sbom') {
        const file = chosenFile(fileInput.current?.files?.[0] ?? form.get('sbom'));
        if (!file) throw new FormProblem({ sbom: 'Choose a CycloneDX JSON file.' });
        const read = await readSbomFile(file);
        if ('problem' in read) throw new FormProblem({ sbom: read.problem });
        inventory.sbom = read.sbom;
        inventory.sbomFileName = read.fileName;
      }
      try {
        if (asset) {
          const body: UpdateAssetBody = { ...fields, environment: environment || null, ...inventory };
          onSaved(await updateAsset(spaceId, asset.id, body), false);
        } else {
          const body: CreateAssetBody = { ...fields, ...(environment ? { environment } : {}), ...inventory };
          onSaved(await createAsset(spaceId, body), true);
        }
      } catch (error) {
        if (error instanceof ApiError && Object.keys(error.fields).length > 0)
          throw new FormProblem(linesOfFields(error.fields, lines));
        throw error;
      }
    },
    { fields: FIELDS },
  );
  const inventoryModes: { value: InventoryMode; label: string }[] = [
    ...(asset
      ? [{ value: 'keep' as const, label: `Keep the current inventory (version ${asset.inventoryVersion})` }]
      : []),
    { value: 'typed', label: asset ? 'Replace it with components typed here' : 'Type the components' },
    { value: 'sbom', label: asset ? 'Replace it with an SBOM file' : 'Upload a CycloneDX SBOM' },
  ];
  return (
    <Form
      onSubmit={submit.onSubmit}
      pending={submit.pending}
      className="sg-va-form"
      aria-label={asset ? `Edit ${asset.name}` : 'New asset'}
    >
      {submit.error && <Alert tone="error">{submit.error}</Alert>}
      <Field
        label="Name"
        name="name"
        required
        maxLength={vulnLimits.assetNameLength}
        defaultValue={asset?.name ?? ''}
        error={submit.fields.name}
      />
      <SelectField
        label="Kind"
        name="kind"
        value={kind}
        onChange={(event) => setKind(event.currentTarget.value)}
        options={assetKinds.map((k) => ({ value: k, label: KIND_LABELS[k] }))}
        error={submit.fields.kind}
      />
      <Field
        label="Environment"
        name="environment"
        hint="For example production or staging."
        defaultValue={asset?.environment ?? ''}
        error={submit.fields.environment}
      />
      <Field
        label="Tags"
        name="tags"
        hint={`Separated by commas; at most ${vulnLimits.tags}.`}
        defaultValue={asset?.tags.join(', ') ?? ''}
        error={submit.fields.tags}
      />
      {kind === 'application' && (
        <SelectField
          label="Firewall in front of it"
          name="firewallId"
          value={firewallId}
          onChange={(event) => setFirewallId(event.currentTarget.value)}
          options={firewallOptions}
          hint="Virtual patches for this application's findings go to this firewall."
          error={submit.fields.firewallId}
        />
      )}
      <fieldset className="sg-va-modes">
        <legend>Inventory</legend>
        {inventoryModes.map((option) => (
          <label key={option.value} className="sg-va-mode">
            <input
              type="radio"
              name="inventory"
              value={option.value}
              checked={mode === option.value}
              onChange={() => setMode(option.value)}
            />{' '}
            {option.label}
          </label>
        ))}
      </fieldset>
      {mode === 'typed' && (
        <FieldFrame
          label="Components"
          hint={`One a line: ${LINE_FORMAT}. Other ecosystems go in as package URLs and are kept but not assessed.`}
          error={submit.fields.components}
        >
          {(control) => (
            <textarea
              {...control}
              name="components"
              rows={8}
              className="sg-mono"
              spellCheck={false}
              defaultValue={currentLines}
            />
          )}
        </FieldFrame>
      )}
      {mode === 'sbom' && (
        <FieldFrame
          label="SBOM file"
          hint="CycloneDX 1.4 to 1.6, JSON, up to 32 MB. Components are read from their package URLs, nested ones too."
          error={submit.fields.sbom}
        >
          {(control) => <input {...control} ref={fileInput} type="file" name="sbom" accept=".json,application/json" />}
        </FieldFrame>
      )}
      {asset && mode !== 'keep' && (
        <p className="muted">The current inventory is kept in the history when the new one replaces it.</p>
      )}
      <div className="row">
        <button type="submit" className="button" disabled={submit.pending}>
          {submit.pending ? 'Saving…' : asset ? 'Save' : 'Add asset'}
        </button>
        <button type="button" className="button secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </Form>
  );
}
