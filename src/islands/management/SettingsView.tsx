import { planTerms } from '../../../contract/constants/plans.ts';
import type { Space } from '../../../contract/spaces.ts';
import { LazyMarkdown } from '../markdown/LazyMarkdown.tsx';

/** The settings as analysts and viewers see them: read-only. */
export function SettingsView({ space }: { readonly space: Space }) {
  return (
    <>
      <p className="muted">Only admins and owners can change these settings.</p>
      <dl className="sg-settings">
        <dt>Name</dt>
        <dd>{space.name}</dd>
        <dt>Description</dt>
        <dd>
          {space.description.trim() === '' ? (
            <span className="muted">No description.</span>
          ) : (
            <LazyMarkdown source={space.description} />
          )}
        </dd>
        <dt>Time zone</dt>
        <dd>{space.timeZone}</dd>
        <dt>Data retention</dt>
        <dd>
          {space.retentionDays} days ({planTerms[space.plan].label} plan)
        </dd>
      </dl>
    </>
  );
}
