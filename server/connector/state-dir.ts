/** The connector's state dir: one place for everything it and its private nginx write, so nothing else is touched. */
import { chmodSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Every path in the state dir, absolute. */
export type StateLayout = {
  dir: string;
  /** nginx's and ModSecurity's logs. */
  logs: string;
  errorLog: string;
  auditLog: string;
  accessLog: string;
  /** nginx's temporary files (request bodies, proxy buffers). */
  tmp: string;
  pidFile: string;
  /** One folder per version received: its files and the nginx.conf written for it. */
  versions: string;
  /** Symlink to the version nginx serves (or to `waiting`). */
  current: string;
  /** The 503 page's configuration, served until a first version applies. */
  waiting: string;
  /** Where the audit log tailer keeps its offset. */
  tailState: string;
};

/** The layout of a state dir (made absolute, since nginx resolves relative paths against other folders). */
export function stateLayout(dir: string): StateLayout {
  const root = resolve(dir);
  const logs = join(root, 'logs');
  return {
    dir: root,
    logs,
    errorLog: join(logs, 'error.log'),
    auditLog: join(logs, 'audit.log'),
    accessLog: join(logs, 'access.log'),
    tmp: join(root, 'tmp'),
    pidFile: join(root, 'nginx.pid'),
    versions: join(root, 'versions'),
    current: join(root, 'current'),
    waiting: join(root, 'waiting'),
    tailState: join(root, 'audit-offset.json'),
  };
}

/**
 * Creates the folders. Readable by the connector's user only, except that, when started as root (nginx's workers
 * then run as `nobody`), the workers may pass through the state dir to their temporary folders.
 */
export function prepareStateDir(layout: StateLayout): void {
  for (const folder of [layout.dir, layout.logs, layout.tmp, layout.versions, layout.waiting]) {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
  }
  if (process.getuid?.() === 0) {
    chmodSync(layout.dir, 0o711);
    chmodSync(layout.tmp, 0o711);
  }
}
