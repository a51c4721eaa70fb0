import { buildPath } from '../../lib/routes.ts';
import { $spaces } from '../../stores/space.ts';
import { useApi } from '../shared/use-api.ts';
import { areaHref, areaOf } from './console-areas.ts';
import type { Here } from './use-here.ts';

/** The address to open in another space: the current area's list, or the overview. */
function areaHrefIn(here: Here, spaceId: string): string {
  const area = areaOf(here.pattern, here.view);
  return area ? areaHref(area, spaceId) : buildPath('/console/{space_id}', { space_id: spaceId });
}

interface Props {
  readonly here: Here;
  readonly className?: string;
}

/** The space switcher: opens the same area in the chosen space. In the top bar, and in the menu drawer on small screens. */
export function SpaceSwitch({ here, className }: Props) {
  const { loaded } = useApi($spaces);
  const spaces = loaded.state === 'ready' ? loaded.data.items : [];
  if (spaces.length === 0) return null;
  const current = spaces.find((space) => space.id === here.spaceId);
  return (
    <label className={className ? `console-user__switch ${className}` : 'console-user__switch'}>
      <span className="visually-hidden">Space</span>
      <select
        className="input"
        value={here.spaceId}
        onChange={(event) => location.assign(areaHrefIn(here, event.target.value))}
      >
        {!current && <option value={here.spaceId}>Unknown space</option>}
        {spaces.map((space) => (
          <option key={space.id} value={space.id}>
            {space.name}
          </option>
        ))}
      </select>
    </label>
  );
}
