/** How often the explore page asks its widgets again (0: never), and a refresh at once. */
import { refreshIntervals } from '../../../../contract/constants/dashboards.ts';
import type { TimeRange } from '../../../../contract/dashboards.ts';
import { widgetResults } from '../../../stores/dashboards.ts';
import { invalidateApi } from '../../../stores/fetcher.ts';
import { isRelative, refreshLabel } from '../requests.ts';

interface Props {
  readonly seconds: number;
  readonly onChange: (seconds: number) => void;
  readonly range: TimeRange;
  /** Moves the instant relative ranges end at, so their widgets ask again. */
  readonly onRefreshNow: () => void;
}

export function RefreshControls({ seconds, onChange, range, onRefreshNow }: Props) {
  return (
    <>
      <span className="sg-dash__refresh">
        <label htmlFor="dash-refresh">Auto refresh</label>
        <select id="dash-refresh" value={seconds} onChange={(event) => onChange(Number(event.target.value))}>
          {refreshIntervals.map((each) => (
            <option key={each} value={each}>
              {refreshLabel(each)}
            </option>
          ))}
        </select>
      </span>
      <button
        type="button"
        className="button secondary"
        onClick={() => {
          // An absolute range's requests do not change: their remembered answers are asked again.
          if (!isRelative(range)) invalidateApi(widgetResults);
          onRefreshNow();
        }}
      >
        Refresh now
      </button>
    </>
  );
}
