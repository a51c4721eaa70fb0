import { useStore } from '@nanostores/react';
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { firewallModeLabels } from '../../../contract/constants/firewalls.ts';
import type { FirewallSettings } from '../../../contract/firewall-settings.ts';
import type { Firewall } from '../../../contract/firewalls.ts';
import { atLeast } from '../../../contract/roles.ts';
import { buildPath } from '../../lib/routes.ts';
import { $changedKeys, $draft, $firewall, startDraft } from '../../stores/firewalls.ts';
import { $routeId, $spaceId } from '../../stores/route.ts';
import { $space } from '../../stores/space.ts';
import { withApp } from '../app/with-app.tsx';
import type { FieldErrors } from '../shared/field-errors.ts';
import { Loaded } from '../shared/Loaded.tsx';
import { all, useApi } from '../shared/use-api.ts';
import { useUrlView } from '../shared/use-url-view.ts';
import { ConfigTabs } from './ConfigTabs.tsx';
import { configTabs, tabHasError, tabOfKey } from './config-tabs.ts';
import { connectorText } from './connector-state.ts';
import { GeneralTab } from './GeneralTab.tsx';
import { SaveBar } from './SaveBar.tsx';
import '../shared/panels.css';
import '../shared/console-screens.css';
import './firewall.css';

// The General tab opens first; every other tab's code loads when the tab is first opened.
const ManagedRulesTab = lazy(() => import('./ManagedRulesTab.tsx').then((m) => ({ default: m.ManagedRulesTab })));
const ExclusionsTab = lazy(() => import('./ExclusionsTab.tsx').then((m) => ({ default: m.ExclusionsTab })));
const CustomRulesTab = lazy(() => import('./CustomRulesTab.tsx').then((m) => ({ default: m.CustomRulesTab })));
const IpListsTab = lazy(() => import('./IpListsTab.tsx').then((m) => ({ default: m.IpListsTab })));
const CountriesTab = lazy(() => import('./CountriesTab.tsx').then((m) => ({ default: m.CountriesTab })));
const RateLimitsTab = lazy(() => import('./RateLimitsTab.tsx').then((m) => ({ default: m.RateLimitsTab })));
const ConnectTab = lazy(() => import('./ConnectTab.tsx').then((m) => ({ default: m.ConnectTab })));
const PreviewTab = lazy(() => import('./PreviewTab.tsx').then((m) => ({ default: m.PreviewTab })));
const HistoryTab = lazy(() => import('./HistoryTab.tsx').then((m) => ({ default: m.HistoryTab })));

/** What a tab is drawn from. */
export interface TabContext {
  readonly spaceId: string;
  readonly firewall: Firewall;
  readonly settings: FirewallSettings;
  readonly errors: FieldErrors;
  /** Admins and owners edit; analysts and viewers read. */
  readonly editable: boolean;
  /** True while the draft holds unsaved changes. */
  readonly unsaved: boolean;
}

/** A tab's fields, disabled for the roles that only read. */
function Editable({ label, editable, children }: { label: string; editable: boolean; children: ReactNode }) {
  return (
    <fieldset className="plain-fieldset sg-fw-panel" disabled={!editable}>
      <legend className="visually-hidden">{label}</legend>
      {children}
    </fieldset>
  );
}

/** The panel of each tab that is built. */
const panels: Readonly<Record<string, (context: TabContext) => ReactNode>> = {
  general: ({ settings, errors, editable }) => (
    <Editable label="General settings" editable={editable}>
      <GeneralTab settings={settings} errors={errors} />
    </Editable>
  ),
  managed: ({ settings, errors, editable }) => (
    <Editable label="Managed rules" editable={editable}>
      <ManagedRulesTab settings={settings} errors={errors} />
    </Editable>
  ),
  exclusions: ({ settings, errors, editable }) => (
    <Editable label="Exclusions" editable={editable}>
      <ExclusionsTab settings={settings} errors={errors} editable={editable} />
    </Editable>
  ),
  custom: ({ settings, errors, editable }) => (
    <Editable label="Custom rules" editable={editable}>
      <CustomRulesTab settings={settings} errors={errors} editable={editable} />
    </Editable>
  ),
  ip: ({ settings, errors, editable }) => (
    <Editable label="IP allow and deny lists" editable={editable}>
      <IpListsTab settings={settings} errors={errors} editable={editable} />
    </Editable>
  ),
  countries: ({ settings, errors, editable }) => (
    <Editable label="Country blocking" editable={editable}>
      <CountriesTab settings={settings} errors={errors} editable={editable} />
    </Editable>
  ),
  rate: ({ settings, errors, editable }) => (
    <Editable label="Rate limits" editable={editable}>
      <RateLimitsTab settings={settings} errors={errors} editable={editable} />
    </Editable>
  ),
  connect: ({ spaceId, firewall, editable }) => (
    <ConnectTab spaceId={spaceId} firewall={firewall} editable={editable} />
  ),
  preview: ({ firewall }) => <PreviewTab firewall={firewall} />,
  history: ({ spaceId, firewall, editable, unsaved }) => (
    <HistoryTab spaceId={spaceId} firewall={firewall} editable={editable} unsaved={unsaved} />
  ),
};

const FIREWALL_MISSING = (
  <div className="sg-missing">
    <h2>Firewall not found</h2>
    <p>This space has no firewall with this id. It may have been deleted, or the link is mistyped.</p>
  </div>
);

const readTab = (search: string): string => {
  const asked = new URLSearchParams(search).get('tab');
  return configTabs.some((tab) => tab.id === asked) ? (asked as string) : 'general';
};
const writeTab = (tab: string, current: URLSearchParams): string => {
  if (tab === 'general') current.delete('tab');
  else current.set('tab', tab);
  return current.toString();
};

/** /console/firewall/config/{space_id}/{id}: one firewall's settings in tabs, one draft, saved as a new version. */
export function FirewallConfigScreen() {
  const spaceId = useStore($spaceId);
  const firewallId = useStore($routeId);
  const space = useApi($space);
  const detail = useApi($firewall);
  const draft = useStore($draft);
  const changed = useStore($changedKeys);
  // The open tab is in the URL (`?tab=history`), so a link can open one and a reload keeps it; the tabs only show
  // once the firewall is loaded in the browser, after the URL is read.
  const [tab, setActive] = useUrlView(readTab, writeTab);
  const active = tab ?? 'general';
  const [errors, setErrors] = useState<FieldErrors>({});
  const loadedFirewall = detail.loaded.state === 'ready' ? detail.loaded.data : null;

  // The draft starts from the first answer and is kept across refreshes, so unsaved changes stay.
  useEffect(() => {
    if (loadedFirewall && $draft.get()?.firewallId !== loadedFirewall.id) startDraft(loadedFirewall);
  }, [loadedFirewall]);
  useEffect(() => () => $draft.set(null), []);
  const unsaved = changed.length > 0;
  useEffect(() => {
    if (!unsaved) return;
    const warn = (event: BeforeUnloadEvent): void => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [unsaved]);

  const retry = (): void => {
    space.retry();
    detail.retry();
  };
  const listPath = spaceId ? buildPath('/console/firewall/{space_id}', { space_id: spaceId }) : '/spaces';
  // The draft of this firewall, once started from its first answer; the screen waits for it.
  const ownDraft = draft?.firewallId === loadedFirewall?.id ? draft : null;
  // Whether the space is the caller's decides what a missing firewall means, so the space answers first.
  return (
    <Loaded
      spaceId={firewallId === null ? null : spaceId}
      loaded={space.loaded}
      retry={retry}
      loading="Loading the firewall…"
    >
      {() => (
        <Loaded
          loaded={all(space.loaded, detail.loaded)}
          retry={retry}
          loading="Loading the firewall…"
          notFound={FIREWALL_MISSING}
          back={{ href: listPath, label: 'Back to the firewalls' }}
          view={ownDraft}
        >
          {(data, draft) => {
            const [{ id, role }, firewall] = data;
            const editable = atLeast(role, 'admin');
            const tabs = configTabs.filter((tab) => panels[tab.id]);
            const withErrors = new Set(tabs.filter((tab) => tabHasError(tab, errors)).map((tab) => tab.id));
            const changedTabs = new Set(changed.flatMap((key) => tabOfKey(key)?.id ?? []));
            const context: TabContext = { spaceId: id, firewall, settings: draft.settings, errors, editable, unsaved };

            return (
              <div className="stack sg-source-page sg-fw-config">
                {/* One line of header: the way back, the name and its state, so the tabs start near the top. */}
                <header className="sg-fw-head">
                  <a href={listPath}>← Firewalls</a>
                  <h2 id="sg-fw-heading">{firewall.name}</h2>
                  <p className="muted">
                    {firewallModeLabels[firewall.mode]} · newest version {firewall.version} · connector:{' '}
                    {connectorText(firewall.connector)}
                  </p>
                  {!editable && (
                    <p className="muted">
                      You can read this firewall’s settings; only admins and owners of this space can change them.
                    </p>
                  )}
                </header>
                {editable && (
                  <SaveBar
                    spaceId={id}
                    draft={draft}
                    changed={changed}
                    onErrors={(next) => {
                      setErrors(next);
                      const first = configTabs.find((tab) => tabHasError(tab, next));
                      if (first) setActive(first.id);
                    }}
                    onSaved={() => setErrors({})}
                  />
                )}
                <ConfigTabs
                  tabs={tabs}
                  active={active}
                  onSelect={setActive}
                  withErrors={withErrors}
                  changed={changedTabs}
                >
                  <Suspense fallback={<p role="status">Loading the tab…</p>}>{panels[active]?.(context)}</Suspense>
                </ConfigTabs>
              </div>
            );
          }}
        </Loaded>
      )}
    </Loaded>
  );
}

export default withApp(FirewallConfigScreen);
