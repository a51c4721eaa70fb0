import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { flagFiles, flagPath } from './flag-assets.ts';

test('every country code the event log meets has a flag file to serve, as SVG', () => {
  const files = flagFiles();
  expect(files.size).toBeGreaterThan(240);
  for (const code of ['FR', 'US', 'GB', 'DE', 'CN', 'RU', 'BR', 'IN']) {
    const file = files.get(flagPath(code));
    expect(file, code).toBeDefined();
    expect(readFileSync(file as string, 'utf8')).toMatch(/^<svg[\s>]/);
  }
  expect(flagPath('FR')).toBe('/flags/fr.svg');
});
