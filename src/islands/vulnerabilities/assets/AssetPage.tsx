import { lazy, type ReactNode, Suspense, useRef, useState } from 'react';
import type { Asset, AssetDetail } from '../../../../contract/assets.ts';
import { findingStatuses, findingStatusLabels } from '../../../../contract/constants/vulns.ts';
import { errorMessage } from '../../../lib/api.ts';
import { $asset, deleteAsset } from '../../../stores/assets.ts';
import { Alert } from '../../shared/Alert.tsx';
import { ConfirmButton } from '../../shared/ConfirmButton.tsx';
import { Drawer } from '../../shared/Drawer.tsx';
import { dateTime } from '../../shared/format.ts';
import { Problem } from '../../shared/Problem.tsx';
import { useApi } from '../../shared/use-api.ts';
import { writeLines } from './component-lines.ts';
import { FindingCounts } from './FindingCounts.tsx';
import { InventoryHistory, sourceText } from './InventoryHistory.tsx';
import { InventoryTable } from './InventoryTable.tsx';
import { SbomUpload } from './SbomUpload.tsx';

// Loaded when first opened: a page that never opens it never downloads it.
const AssetForm = lazy(() => import('./AssetForm.tsx').then((module) => ({ default: module.AssetForm })));

interface Props {
  readonly spaceId: string;
  /** The asset to show (`$openAssetId` follows it; an answer for another asset is not shown). */
  readonly assetId: string;
  readonly canManage: boolean;
  readonly onBack: () => void;
  readonly onShowFindings: (assetId: string) => void;
  /** Buttons of the page header beside Edit and Delete (the lead's "Assess now"). */
  readonly actions?: ReactNode;
}

/** Other statuses than open, in words: "1 risk accepted, 3 fixed". */
function otherStatuses(asset: Asset): string {
  const parts = findingStatuses
    .filter((status) => status !== 'open' && asset.findings.byStatus[status] > 0)
    .map((status) => `${asset.findings.byStatus[status]} ${findingStatusLabels[status].toLowerCase()}`);
  return parts.join(', ');
}

/** The details, inventory and history of one asset. */
function AssetBody({ asset, spaceId, canManage, onBack, onShowFindings, actions }: Props & { asset: AssetDetail }) {
  const [editing, setEditing] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const others = otherStatuses(asset);
  return (
    <article className="sg-va-page" aria-labelledby="sg-va-title">
      <div className="row sg-va-page-head">
        <button type="button" className="button secondary" onClick={onBack}>
          All assets
        </button>
        <h3 id="sg-va-title">{asset.name}</h3>
        <div className="row sg-va-actions">
          {actions}
          {canManage && (
            <>
              <button ref={editButton} type="button" className="button secondary" onClick={() => setEditing(true)}>
                Edit
              </button>
              <ConfirmButton
                label="Delete"
                ariaLabel={`Delete ${asset.name}`}
                question={`Delete ${asset.name} with its inventories and findings?`}
                onConfirm={async () => {
                  setFailure(null);
                  try {
                    await deleteAsset(spaceId, asset.id);
                    onBack();
                  } catch (error) {
                    setFailure(errorMessage(error));
                  }
                }}
              />
            </>
          )}
        </div>
      </div>
      {message && <Alert tone="success">{message}</Alert>}
      {failure && <Alert tone="error">{failure}</Alert>}
      <dl className="sg-va-details">
        <div>
          <dt>Kind</dt>
          <dd>{asset.kind === 'application' ? 'Application' : 'Host'}</dd>
        </div>
        <div>
          <dt>Environment</dt>
          <dd>{asset.environment ?? '—'}</dd>
        </div>
        <div>
          <dt>Tags</dt>
          <dd>{asset.tags.length > 0 ? asset.tags.join(', ') : '—'}</dd>
        </div>
        <div>
          <dt>Inventory</dt>
          <dd>
            Version {asset.inventoryVersion}, {sourceText(asset.inventorySource, asset.sbom)}:{' '}
            {asset.components.toLocaleString('en')} components
            {asset.notAssessed > 0 ? `, ${asset.notAssessed.toLocaleString('en')} not assessed` : ''}
          </dd>
        </div>
        <div>
          <dt>Open findings</dt>
          <dd>
            <FindingCounts counts={asset.findings} label={`Open findings of ${asset.name} by severity`} />
            {others && <span className="muted"> ({others})</span>}{' '}
            <button type="button" className="link-button" onClick={() => onShowFindings(asset.id)}>
              Show findings
            </button>
          </dd>
        </div>
        <div>
          <dt>Last assessed</dt>
          <dd>{asset.lastAssessedAt ? dateTime(asset.lastAssessedAt) : 'not yet'}</dd>
        </div>
      </dl>
      {canManage && <SbomUpload spaceId={spaceId} asset={asset} />}
      <section aria-labelledby="sg-va-components">
        <h4 id="sg-va-components">Components</h4>
        <InventoryTable
          label={`Components of ${asset.name}`}
          components={asset.inventory}
          onShowFindings={() => onShowFindings(asset.id)}
        />
      </section>
      <section aria-labelledby="sg-va-history">
        <h4 id="sg-va-history">Inventory history</h4>
        <InventoryHistory spaceId={spaceId} assetId={asset.id} history={asset.history} />
      </section>
      <Drawer
        open={editing}
        onClose={() => setEditing(false)}
        label={`Edit ${asset.name}`}
        returnFocus={editButton}
        variant="panel"
      >
        <Suspense fallback={<p role="status">Loading the form…</p>}>
          {editing && (
            <AssetForm
              spaceId={spaceId}
              asset={asset}
              currentLines={asset.inventorySource === 'manual' ? writeLines(asset.inventory) : ''}
              onCancel={() => setEditing(false)}
              onSaved={(saved) => {
                setMessage(`${saved.name} saved.`);
                setEditing(false);
              }}
            />
          )}
        </Suspense>
      </Drawer>
    </article>
  );
}

/** The page of the open asset (`$openAssetId`), or why it cannot be shown. */
export function AssetPage(props: Props) {
  const asset = useApi($asset);
  if (asset.loaded.state === 'loading' || (asset.loaded.state === 'ready' && asset.loaded.data.id !== props.assetId))
    return (
      <p className="muted" role="status">
        Loading the asset…
      </p>
    );
  if (asset.loaded.state === 'error')
    return (
      <Problem
        error={asset.loaded.error}
        onRetry={asset.retry}
        notFound={
          <>
            <p>This asset does not exist any more.</p>
            <button type="button" className="button secondary" onClick={props.onBack}>
              All assets
            </button>
          </>
        }
      />
    );
  return <AssetBody {...props} asset={asset.loaded.data} />;
}
