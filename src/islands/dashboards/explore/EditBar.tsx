/** The explore page's edit bar: add a widget, the dashboard's settings, whether anything changed, save and discard. */
import { discardDashboardDraft, saveDashboardDraft } from '../../../stores/dashboards.ts';

interface Props {
  readonly editing: boolean;
  readonly dirty: boolean;
  readonly saving: boolean;
  readonly onPanel: (kind: 'add' | 'settings') => void;
}

export function EditBar({ editing, dirty, saving, onPanel }: Props) {
  return (
    <section className="sg-dash__editbar" aria-label="Edit dashboard">
      {editing && (
        <>
          <button type="button" className="button" onClick={() => onPanel('add')}>
            Add widget
          </button>
          <button type="button" className="button secondary" onClick={() => onPanel('settings')}>
            Dashboard settings
          </button>
        </>
      )}
      <span className="sg-dash__dirty" role="status">
        {dirty ? 'Unsaved changes' : 'No changes yet'}
      </span>
      <button type="button" className="button" disabled={!dirty || saving} onClick={() => void saveDashboardDraft()}>
        {saving ? 'Saving…' : 'Save'}
      </button>
      <button type="button" className="button secondary" onClick={discardDashboardDraft}>
        {dirty ? 'Discard changes' : 'Done'}
      </button>
    </section>
  );
}
