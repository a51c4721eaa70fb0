import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import type { ColorMode } from '../../lib/color-mode.ts';
import { $colorMode, $forcedMode } from '../../stores/theme.ts';
import { useHydratedStore } from '../app/use-hydrated-store.ts';
import { withApp } from '../app/with-app.tsx';

// Styles: ThemeToggle.css, imported by the layouts that place the toggle (see console/frame.css).

const OPTIONS: ReadonlyArray<{ value: ColorMode; label: string; icon: string }> = [
  { value: 'light', label: 'Light', icon: '☀' },
  { value: 'dark', label: 'Dark', icon: '☾' },
  { value: 'system', label: 'System', icon: '◐' },
];

/** The one control that changes the colour mode: light, dark or system (a radio group, arrow keys work). */
function ThemeToggle() {
  const mode = useHydratedStore($colorMode, 'system');
  const forced = useStore($forcedMode);
  // Disabled until hydrated, so a click never lands on a control that cannot act yet.
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  return (
    <fieldset className="theme-toggle" disabled={!ready || forced !== undefined}>
      <legend className="visually-hidden">Colour mode{forced ? ` (this page always uses ${forced} mode)` : ''}</legend>
      {OPTIONS.map((option) => (
        <label key={option.value} className="theme-toggle__option" title={`${option.label} mode`}>
          <input
            type="radio"
            name="sg-color-mode"
            value={option.value}
            checked={mode === option.value}
            onChange={() => $colorMode.set(option.value)}
          />
          <span aria-hidden="true">{option.icon}</span>
          <span className="theme-toggle__label">{option.label}</span>
        </label>
      ))}
    </fieldset>
  );
}

export default withApp(ThemeToggle);
