/** The assessment page's view as its URL keeps it: the tab, the open asset, the findings filters. */
export type AssessmentTab = 'findings' | 'assets';

export type AssessmentView = {
  tab: AssessmentTab;
  /** The asset whose page is open on the assets tab. */
  asset: string | null;
  /** The findings list's filters, as `GET .../findings` takes them. */
  filters: Record<string, string>;
};

const FILTERS = ['asset', 'status', 'severity', 'ecosystem', 'q'] as const;

/** Reads the view from `location.search`. */
export function readAssessmentView(search: string): AssessmentView {
  const params = new URLSearchParams(search);
  const tab = params.get('tab') === 'assets' ? 'assets' : 'findings';
  const filters: Record<string, string> = {};
  for (const name of FILTERS) {
    const value = params.get(`f.${name}`);
    if (value) filters[name] = value;
  }
  return { tab, asset: params.get('asset'), filters };
}

/** The search string of a view (`?tab=assets&asset=…`, findings filters as `f.status=open…`). */
export function writeAssessmentView(view: AssessmentView): string {
  const params = new URLSearchParams();
  if (view.tab !== 'findings') params.set('tab', view.tab);
  if (view.asset) params.set('asset', view.asset);
  for (const [name, value] of Object.entries(view.filters)) if (value) params.set(`f.${name}`, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}
