import { useStore } from '@nanostores/react';
import { lazy, Suspense } from 'react';
import { atLeast } from '../../../contract/roles.ts';
import { $spaceId } from '../../stores/route.ts';
import { $space } from '../../stores/space.ts';
import { withApp } from '../app/with-app.tsx';
import { type AssessmentTab, readAssessmentView, writeAssessmentView } from '../shared/assessment-url.ts';
import { Loaded } from '../shared/Loaded.tsx';
import { Tabs } from '../shared/Tabs.tsx';
import { useApi } from '../shared/use-api.ts';
import { useUrlView } from '../shared/use-url-view.ts';
import { AssessButton } from './AssessButton.tsx';
import { FindingsTab } from './findings/FindingsTab.tsx';
import '../shared/panels.css';
import '../shared/console-screens.css';
import './vulnerabilities.css';

// The assets tab (inventories, SBOM uploads, an asset's page) loads when it is first opened.
const AssetsTab = lazy(() => import('./assets/AssetsTab.tsx').then((module) => ({ default: module.AssetsTab })));

const TABS: readonly { id: AssessmentTab; label: string }[] = [
  { id: 'findings', label: 'Findings' },
  { id: 'assets', label: 'Assets' },
];

/**
 * /console/vulnerabilities/assessment/{space_id}: the space's findings (trend, filters, triage, virtual patches) and
 * its assets (inventories, SBOM uploads, assessments), as two tabs whose state is kept in the URL.
 */
export function AssessmentScreen() {
  const spaceId = useStore($spaceId);
  const space = useApi($space);
  // The tab, the filters and the open asset are in the URL.
  const [view, change] = useUrlView(readAssessmentView, writeAssessmentView);

  const body = (
    <Loaded spaceId={spaceId} loaded={space.loaded} retry={space.retry} loading="Loading vulnerabilities…" view={view}>
      {(data, view) => {
        const { id, role } = data;
        return (
          <Tabs
            tabs={TABS}
            label="Findings and assets"
            prefix="sg-vu"
            active={view.tab}
            onSelect={(tab) => change({ ...view, tab })}
          >
            {view.tab === 'findings' ? (
              <FindingsTab
                spaceId={id}
                canTriage={atLeast(role, 'analyst')}
                canManage={atLeast(role, 'admin')}
                filters={view.filters}
                onFilters={(filters) => change({ ...view, filters })}
                onOpenAsset={(asset) => change({ ...view, tab: 'assets', asset })}
              />
            ) : (
              <Suspense fallback={<p role="status">Loading the assets…</p>}>
                <AssetsTab
                  spaceId={id}
                  canManage={atLeast(role, 'admin')}
                  asset={view.asset}
                  onOpenAsset={(asset) => change({ ...view, asset })}
                  onShowFindings={(asset) => change({ ...view, tab: 'findings', filters: { asset } })}
                  actions={
                    view.asset && atLeast(role, 'admin') ? (
                      <AssessButton spaceId={id} assetId={view.asset} label="Assess now" />
                    ) : undefined
                  }
                />
              </Suspense>
            )}
          </Tabs>
        );
      }}
    </Loaded>
  );

  return (
    <section className="card panel sg-sources sg-vu" aria-labelledby="sg-vu-heading">
      <div className="row sg-vu-head">
        <h2 id="sg-vu-heading">Vulnerability assessment</h2>
      </div>
      {body}
    </section>
  );
}

export default withApp(AssessmentScreen);
