import type { Firewall } from '../../../contract/firewalls.ts';
import { type FirewallDraft, rebaseDraft, type SettingsKey, startDraft } from '../../stores/firewalls.ts';
import { tabOfKey } from './config-tabs.ts';

interface Props {
  /** The API's words: both versions and who saved the newer one. */
  readonly message: string;
  readonly draft: FirewallDraft;
  readonly changed: readonly SettingsKey[];
  /** The firewall as saved now. */
  readonly current: Firewall;
  readonly onDone: () => void;
}

/** A save that lost a race: the user's changed settings next to the saved ones, then keep theirs on top or discard. */
export function ConflictPanel({ message, draft, changed, current, onDone }: Props) {
  return (
    <section className="sg-fw-conflict" aria-labelledby="sg-fw-conflict-heading" role="alert">
      <h3 id="sg-fw-conflict-heading">Not saved: someone saved version {current.version} meanwhile</h3>
      <p>{message}</p>
      {changed.map((key) => (
        <div key={key} className="sg-fw-conflict__key">
          <h4>
            {key} ({tabOfKey(key)?.label ?? key} tab)
          </h4>
          <div className="sg-fw-sides">
            <div>
              <p className="muted">Your draft (from version {draft.baseVersion})</p>
              {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the settings scroll and must be reachable by keyboard */}
              <pre className="sg-fw-pre" tabIndex={0}>
                {JSON.stringify(draft.settings[key], null, 2)}
              </pre>
            </div>
            <div>
              <p className="muted">Saved version {current.version}</p>
              {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the settings scroll and must be reachable by keyboard */}
              <pre className="sg-fw-pre" tabIndex={0}>
                {JSON.stringify(current[key], null, 2)}
              </pre>
            </div>
          </div>
        </div>
      ))}
      <div className="row">
        <button
          type="button"
          className="button"
          onClick={() => {
            rebaseDraft(current);
            onDone();
          }}
        >
          Keep my changes on top of version {current.version}
        </button>
        <button
          type="button"
          className="button secondary"
          onClick={() => {
            startDraft(current);
            onDone();
          }}
        >
          Discard my changes
        </button>
      </div>
    </section>
  );
}
