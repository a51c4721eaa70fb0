import { useRef, useState } from 'react';
import type { Asset } from '../../../../contract/assets.ts';
import { updateAsset } from '../../../stores/assets.ts';
import { Alert } from '../../shared/Alert.tsx';
import { FieldFrame } from '../../shared/FieldFrame.tsx';
import { Form } from '../../shared/Form.tsx';
import { FormProblem, useSubmit } from '../../shared/use-submit.ts';
import { chosenFile, readSbomFile } from './sbom-file.ts';

interface Props {
  readonly spaceId: string;
  readonly asset: Asset;
}

/** Upload of a new SBOM for an asset: it replaces the inventory, the previous one staying in the history. */
export function SbomUpload({ spaceId, asset }: Props) {
  const [done, setDone] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const submit = useSubmit(
    async (form) => {
      setDone(null);
      const file = chosenFile(input.current?.files?.[0] ?? form.get('sbom'));
      if (!file) throw new FormProblem({ sbom: 'Choose a CycloneDX JSON file.' });
      const read = await readSbomFile(file);
      if ('problem' in read) throw new FormProblem({ sbom: read.problem });
      const before = asset.inventoryVersion;
      const saved = await updateAsset(spaceId, asset.id, { sbom: read.sbom, sbomFileName: read.fileName });
      const n = saved.components;
      setDone(
        `${read.fileName}: ${n.toLocaleString('en')} component${n === 1 ? '' : 's'} now make up version ${saved.inventoryVersion}; version ${before} is kept in the history.`,
      );
      if (input.current) input.current.value = '';
    },
    { fields: ['sbom'] },
  );
  return (
    <Form onSubmit={submit.onSubmit} pending={submit.pending} className="sg-va-upload" aria-label="Upload a new SBOM">
      {done && <Alert tone="success">{done}</Alert>}
      {submit.error && <Alert tone="error">{submit.error}</Alert>}
      <FieldFrame
        label="New SBOM"
        hint="CycloneDX 1.4 to 1.6, JSON. It replaces the current inventory, which is kept in the history."
        error={submit.fields.sbom}
      >
        {(control) => <input {...control} ref={input} type="file" name="sbom" accept=".json,application/json" />}
      </FieldFrame>
      <button type="submit" className="button" disabled={submit.pending}>
        {submit.pending ? 'Uploading…' : 'Upload and replace'}
      </button>
    </Form>
  );
}
