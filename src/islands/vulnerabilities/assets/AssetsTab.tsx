import { lazy, type ReactNode, Suspense, useEffect, useRef, useState } from 'react';
import { $assets, $openAssetId } from '../../../stores/assets.ts';
import { Alert } from '../../shared/Alert.tsx';
import { Drawer } from '../../shared/Drawer.tsx';
import { Problem } from '../../shared/Problem.tsx';
import { useApi } from '../../shared/use-api.ts';
import { AssetPage } from './AssetPage.tsx';
import { AssetsTable } from './AssetsTable.tsx';
import './assets.css';

// Loaded when first opened: a page that never opens it never downloads it.
const AssetForm = lazy(() => import('./AssetForm.tsx').then((module) => ({ default: module.AssetForm })));

interface Props {
  readonly spaceId: string;
  readonly canManage: boolean;
  /** The asset whose page is open, or null for the list. */
  readonly asset: string | null;
  readonly onOpenAsset: (assetId: string | null) => void;
  /** Opens the findings tab filtered to this asset. */
  readonly onShowFindings: (assetId: string) => void;
  /** Buttons for the open asset's page header (where "Assess now" goes). */
  readonly actions?: ReactNode;
}

/** The space's assets (list, Add asset for admins) or, when `asset` is set, that asset's page. */
export function AssetsTab({ spaceId, canManage, asset, onOpenAsset, onShowFindings, actions }: Props) {
  useEffect(() => $openAssetId.set(asset), [asset]);
  if (asset !== null)
    return (
      <AssetPage
        spaceId={spaceId}
        assetId={asset}
        canManage={canManage}
        onBack={() => onOpenAsset(null)}
        onShowFindings={onShowFindings}
        actions={actions}
      />
    );
  return <AssetList spaceId={spaceId} canManage={canManage} onOpenAsset={onOpenAsset} />;
}

function AssetList({ spaceId, canManage, onOpenAsset }: Pick<Props, 'spaceId' | 'canManage' | 'onOpenAsset'>) {
  const assets = useApi($assets);
  const [adding, setAdding] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  let body: ReactNode;
  if (assets.loaded.state === 'loading')
    body = (
      <p className="muted" role="status">
        Loading assets…
      </p>
    );
  else if (assets.loaded.state === 'error') body = <Problem error={assets.loaded.error} onRetry={assets.retry} />;
  else if (assets.loaded.data.items.length === 0)
    body = (
      <p className="sg-empty">
        No assets yet.{' '}
        {canManage
          ? 'Add one with Add asset: an application or a host, with its components typed in or read from a CycloneDX SBOM.'
          : 'An admin or owner of this space can add one.'}
      </p>
    );
  else body = <AssetsTable assets={assets.loaded.data.items} onOpen={onOpenAsset} />;
  return (
    <div className="sg-va">
      <div className="row sg-sources-head">
        <p className="muted">
          An asset is an application or a host with its software inventory; assessments match the inventory against the
          vulnerability library.
        </p>
        {canManage && (
          <button
            ref={addButton}
            type="button"
            className="button"
            onClick={() => {
              setMessage(null);
              setAdding(true);
            }}
          >
            Add asset
          </button>
        )}
      </div>
      {message && <Alert tone="success">{message}</Alert>}
      {body}
      <Drawer open={adding} onClose={() => setAdding(false)} label="New asset" returnFocus={addButton} variant="panel">
        <Suspense fallback={<p role="status">Loading the form…</p>}>
          {adding && (
            <AssetForm
              spaceId={spaceId}
              asset={null}
              onCancel={() => setAdding(false)}
              onSaved={(saved) => {
                setMessage(
                  `${saved.name} added with ${saved.components.toLocaleString('en')} component${saved.components === 1 ? '' : 's'}.`,
                );
                setAdding(false);
              }}
            />
          )}
        </Suspense>
      </Drawer>
    </div>
  );
}
