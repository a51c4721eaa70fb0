import { useState } from 'react';
import { firewallModeLabels } from '../../../../contract/constants/firewalls.ts';
import type { FindingDetail, VirtualPatchBody, VirtualPatchPreview } from '../../../../contract/findings.ts';
import { buildPath } from '../../../lib/routes.ts';
import { applyVirtualPatch, previewVirtualPatch, removeVirtualPatch } from '../../../stores/findings.ts';
import { $firewallCatalog, $firewalls } from '../../../stores/firewalls.ts';
import { Alert } from '../../shared/Alert.tsx';
import { DiffView } from '../../shared/DiffView.tsx';
import { Field } from '../../shared/Field.tsx';
import { diffLines } from '../../shared/line-diff.ts';
import { SelectField } from '../../shared/SelectField.tsx';
import { useApi } from '../../shared/use-api.ts';
import { text, useSubmit } from '../../shared/use-submit.ts';

interface Props {
  readonly spaceId: string;
  readonly finding: FindingDetail;
}

const FIELDS = ['firewallId', 'path', 'methods', 'queryPattern', 'group'] as const;

/** The form's body: a custom rule on a path (methods and a query pattern optional), or a CRS group to enable. */
function bodyOf(form: FormData, kind: VirtualPatchBody['kind']): VirtualPatchBody {
  const firewallId = text(form, 'firewallId');
  if (kind === 'crs-group') return { kind, firewallId, group: text(form, 'group') };
  const methods = text(form, 'methods')
    .split(/[\s,]+/)
    .filter(Boolean);
  const queryPattern = text(form, 'queryPattern').trim();
  return {
    kind,
    firewallId,
    path: text(form, 'path'),
    ...(methods.length > 0 ? { methods } : {}),
    ...(queryPattern ? { queryPattern } : {}),
  };
}

/**
 * A virtual patch for a finding of a web application (admins): block the flaw's way in on a firewall, previewed as the
 * compiled files that change, then saved as the firewall's next version; the finding is mitigated while it holds.
 */
export function VirtualPatchForm({ spaceId, finding }: Props) {
  const firewalls = useApi($firewalls);
  const catalog = useApi($firewallCatalog);
  const [kind, setKind] = useState<VirtualPatchBody['kind']>('custom-rule');
  const [preview, setPreview] = useState<{ body: VirtualPatchBody; answer: VirtualPatchPreview } | null>(null);
  const [applied, setApplied] = useState<number | null>(null);
  const asking = useSubmit(
    async (form) => {
      setApplied(null);
      const body = bodyOf(form, kind);
      setPreview({ body, answer: await previewVirtualPatch(spaceId, finding.id, body) });
    },
    { fields: FIELDS },
  );
  const applying = useSubmit(async () => {
    if (!preview) return;
    const answer = await applyVirtualPatch(spaceId, finding.id, preview.body);
    setApplied(answer.version);
    setPreview(null);
  });
  const removing = useSubmit(async () => {
    await removeVirtualPatch(spaceId, finding.id);
  });

  const active = finding.virtualPatch;
  if (active)
    return (
      <section className="sg-vu-patch" aria-labelledby="sg-vu-patch-heading">
        <h3 id="sg-vu-patch-heading">Virtual patch</h3>
        <p>
          {active.description}, since version {active.version} of{' '}
          <a href={buildPath('/console/firewall/config/{space_id}/{id}', { space_id: spaceId, id: active.firewallId })}>
            {active.firewallName}
          </a>
          .
        </p>
        {active.firewallMode !== 'block' && (
          <Alert tone="info">
            “{active.firewallName}” is set to {firewallModeLabels[active.firewallMode]}: the patch logs matching
            requests but lets them through until its mode is Block.
          </Alert>
        )}
        {removing.error && <Alert tone="error">{removing.error}</Alert>}
        <button type="button" className="button secondary" disabled={removing.pending} onClick={() => removing.run()}>
          {removing.pending ? 'Removing…' : 'Remove the patch (the finding opens again)'}
        </button>
      </section>
    );

  const firewallList = firewalls.loaded.state === 'ready' ? firewalls.loaded.data.items : [];
  const groups =
    catalog.loaded.state === 'ready'
      ? catalog.loaded.data.groups.filter((g) => g.kind === 'request' && g.optional && !g.application)
      : [];
  return (
    <section className="sg-vu-patch" aria-labelledby="sg-vu-patch-heading">
      <h3 id="sg-vu-patch-heading">Virtual patch</h3>
      {applied !== null && (
        <Alert tone="success">
          Version {applied} of the firewall is saved; the finding is mitigated while the firewall keeps the patch.
        </Alert>
      )}
      {firewallList.length === 0 ? (
        <p className="muted">
          Add a firewall in front of this application to block the flaw there:{' '}
          <a href={buildPath('/console/firewall/{space_id}', { space_id: spaceId })}>Firewalls</a>.
        </p>
      ) : (
        <form onSubmit={asking.onSubmit} noValidate>
          <p className="muted">
            Block the way in to {finding.component.name} on the firewall in front of {finding.asset.name} until it is
            upgraded{finding.fixedIn ? ` to ${finding.fixedIn}` : ''}.
          </p>
          {asking.error && <Alert tone="error">{asking.error}</Alert>}
          <SelectField
            label="Firewall"
            name="firewallId"
            error={asking.fields.firewallId}
            options={firewallList.map((f) => ({ value: f.id, label: f.name }))}
          />
          <fieldset className="sg-vu-kind">
            <legend>How</legend>
            <label>
              <input
                type="radio"
                name="kind"
                value="custom-rule"
                checked={kind === 'custom-rule'}
                onChange={() => setKind('custom-rule')}
              />{' '}
              Block requests to a path
            </label>
            <label>
              <input
                type="radio"
                name="kind"
                value="crs-group"
                checked={kind === 'crs-group'}
                onChange={() => setKind('crs-group')}
              />{' '}
              Enable a CRS rule group
            </label>
          </fieldset>
          {kind === 'custom-rule' ? (
            <>
              <Field
                label="Path prefix"
                name="path"
                placeholder="/api/upload"
                hint="Requests whose path starts with this are blocked."
                error={asking.fields.path}
                required
              />
              <Field
                label="Methods (optional)"
                name="methods"
                placeholder="POST, PUT"
                hint="Only these methods; all when empty."
                error={asking.fields.methods}
              />
              <Field
                label="Query pattern (optional)"
                name="queryPattern"
                hint="A PCRE the query string must match, such as \$\{jndi:"
                error={asking.fields.queryPattern}
              />
            </>
          ) : (
            <SelectField
              label="Rule group"
              name="group"
              error={asking.fields.group}
              defaultValue={preview?.answer.suggestedGroup ?? undefined}
              options={groups.map((g) => ({ value: g.name, label: `${g.title} (${g.name})` }))}
            />
          )}
          <button type="submit" className="button secondary" disabled={asking.pending}>
            {asking.pending ? 'Previewing…' : 'Preview the change'}
          </button>
        </form>
      )}
      {preview && (
        <section className="sg-vu-patch-preview" aria-label="What the patch changes">
          <p>{preview.answer.change}</p>
          {preview.answer.suggestedGroup && kind === 'custom-rule' && (
            <p className="muted">
              The record’s weakness is also covered by the CRS group {preview.answer.suggestedGroup}.
            </p>
          )}
          {preview.answer.firewall.mode !== 'block' && (
            <Alert tone="info">
              “{preview.answer.firewall.name}” is set to {firewallModeLabels[preview.answer.firewall.mode]}: it logs
              matching requests but lets them through until its mode is Block.
            </Alert>
          )}
          {preview.answer.files.map((file) => (
            <section key={file.name} aria-label={`Changes to ${file.name}`}>
              <h4 className="sg-mono">{file.name}</h4>
              <DiffView
                label={`${file.name}: version ${preview.answer.firewall.version} to ${preview.answer.firewall.version + 1}`}
                lines={diffLines(file.before, file.after)}
                layout="unified"
              />
            </section>
          ))}
          {applying.error && <Alert tone="error">{applying.error}</Alert>}
          <button type="button" className="button" disabled={applying.pending} onClick={() => applying.run()}>
            {applying.pending
              ? 'Applying…'
              : preview.answer.alreadyInPlace
                ? 'Record the finding as mitigated'
                : `Apply as version ${preview.answer.firewall.version + 1}`}
          </button>
        </section>
      )}
    </section>
  );
}
