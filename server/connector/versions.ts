/** Versions on disk: each in its own folder under `versions/`, and `current` a symlink swapped atomically between them. */
import { mkdirSync, readdirSync, readlinkSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, normalize, relative, sep } from 'node:path';
import type { StateLayout } from './state-dir.ts';

/** True for a relative name that stays inside its folder (`crs/setup.conf`; not `../x`, `/etc/x` or `a/./b`). */
export function isSafeName(name: string): boolean {
  if (name === '' || isAbsolute(name) || name.includes('\0') || name.includes('\\')) return false;
  const clean = normalize(name);
  return clean === name && !clean.startsWith('..') && clean.split(sep).every((part) => part !== '..' && part !== '.');
}

/**
 * Writes a version's files into `versions/<n>/files/` (replacing a half-written earlier attempt) and answers the
 * version's folder, where the connector then writes its nginx.conf beside `files/`.
 */
export function writeVersion(layout: StateLayout, version: number, files: Record<string, string>): string {
  const folder = join(layout.versions, String(version));
  const target = join(folder, 'files');
  for (const name of Object.keys(files)) {
    if (!isSafeName(name))
      throw new Error(`The configuration names a file outside its folder: ${JSON.stringify(name)}`);
  }
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(target, { recursive: true, mode: 0o700 });
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(target, name)), { recursive: true, mode: 0o700 });
    writeFileSync(join(target, name), text, { mode: 0o600 });
  }
  return folder;
}

/** Points `current` at a folder in one step: a new symlink beside it renamed over it (rename is atomic). */
export function switchCurrent(layout: StateLayout, folder: string): void {
  const temporary = `${layout.current}.next`;
  rmSync(temporary, { force: true });
  symlinkSync(relative(layout.dir, folder), temporary);
  renameSync(temporary, layout.current);
}

/** The folder `current` points at, or null. */
export function currentFolder(layout: StateLayout): string | null {
  try {
    return join(layout.dir, readlinkSync(layout.current));
  } catch {
    return null;
  }
}

/** Removes version folders other than the current one and the `keep` newest, so the state dir does not grow forever. */
export function pruneVersions(layout: StateLayout, keep = 5): void {
  const current = currentFolder(layout);
  const sorted = readdirSync(layout.versions)
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .sort((a, b) => b - a);
  for (const version of sorted.slice(keep)) {
    const folder = join(layout.versions, String(version));
    if (folder !== current) rmSync(folder, { recursive: true, force: true });
  }
}
