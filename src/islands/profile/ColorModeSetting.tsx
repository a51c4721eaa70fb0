import { useStore } from '@nanostores/react';
import type { ColorMode } from '../../lib/color-mode.ts';
import { $colorModeSyncError } from '../../stores/session.ts';
import { $colorMode } from '../../stores/theme.ts';
import { Alert } from '../shared/Alert.tsx';

const MODES: ReadonlyArray<[ColorMode, string]> = [
  ['light', 'Light'],
  ['dark', 'Dark'],
  ['system', 'System (follow the operating system)'],
];

/** The colour mode preference, applied at once and saved to the profile so it follows the user. */
export function ColorModeSetting() {
  const mode = useStore($colorMode);
  // Saving to the profile happens in the session store's listener, whichever control changed the mode.
  const error = useStore($colorModeSyncError);
  return (
    <section className="card panel" aria-labelledby="mode-title">
      <h2 id="mode-title">Colour mode</h2>
      {error && <Alert tone="error">{error}</Alert>}
      <fieldset className="stack plain-fieldset">
        <legend className="visually-hidden">Colour mode</legend>
        {MODES.map(([value, label]) => (
          <label key={value} className="row">
            <input
              type="radio"
              name="profile-color-mode"
              value={value}
              checked={mode === value}
              onChange={() => $colorMode.set(value)}
            />
            {label}
          </label>
        ))}
      </fieldset>
    </section>
  );
}
