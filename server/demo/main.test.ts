/** `npm run demo` as a newcomer runs it: the sign-in is the last thing printed, framed, and kept in a private file. */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test, vi } from 'vitest';

vi.setConfig({ testTimeout: 120_000 });

const dir = mkdtempSync(join(tmpdir(), 'sg-demo-main-'));
let child: ChildProcess | undefined;

afterAll(() => {
  if (child?.pid) process.kill(child.pid, 'SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

test('the demo prints its sign-in last, framed, and writes it to a file only its user can read', async () => {
  // A stand-in for a built site, so start() does not run the Astro build.
  const site = join(dir, 'site');
  mkdirSync(join(site, '_build'), { recursive: true });
  writeFileSync(join(site, '_build/latest.json'), '{"id":"test"}');
  writeFileSync(join(site, '_redirects'), '');
  writeFileSync(join(site, '_headers'), '');
  writeFileSync(join(site, '404.html'), '<h1>Lost in Space</h1>');
  const dataDir = join(dir, 'data');
  child = spawn(process.execPath, ['server/demo/main.ts'], {
    env: { ...process.env, PORT: '0', DATA_DIR: dataDir, SITE_DIR: site, DEMO_EVENTS: '300', DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let exited: number | null = null;
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.on('exit', (code) => {
    exited = code;
  });
  // Until the sign-in is printed; a demo that exits fails at once with what it printed.
  while (!out.includes('Ctrl-C stops.')) {
    if (exited !== null) throw new Error(`the demo exited with ${exited}:\n${out}`);
    await new Promise((done) => setTimeout(done, 200));
  }
  // Give the trickle time to send a batch: its request lines must not push the sign-in off the screen.
  await new Promise((done) => setTimeout(done, 4_000));
  const lines = out.trimEnd().split('\n');
  const frameEnd = lines.findLastIndex((line) => /^\+-+\+$/.test(line));
  expect(lines.slice(frameEnd + 1).filter((line) => line.trim() !== '')).toEqual([]);
  const frame = lines.slice(
    lines.findLastIndex((line, i) => i < frameEnd && /^\+-+\+$/.test(line)),
    frameEnd + 1,
  );
  expect(frame.join('\n')).toMatch(/\|\s+password: \S{12,}/);
  expect(new Set(frame.map((line) => line.length)).size).toBe(1);

  const file = join(dataDir, 'demo-login.txt');
  expect(statSync(file).mode & 0o777).toBe(0o600);
  const password = /password: (\S+)/.exec(frame.join('\n'))?.[1];
  expect(readFileSync(file, 'utf8')).toContain(`password: ${password}`);
  expect(frame.join('\n')).toContain(file);
});

test('a direct run on a Node older than 24.2 says what to do instead of failing on the .ts file', () => {
  const old = spawnSync('/usr/bin/node', ['--version'], { encoding: 'utf8' });
  const version = old.stdout?.trim().slice(1) ?? '';
  if (old.status !== 0 || Number(version.split('.')[0]) >= 24) {
    // No older Node on this machine: simulate one by faking the reported version.
    const faked = spawnSync(
      process.execPath,
      [
        '--import',
        'data:text/javascript,Object.defineProperty(process.versions,"node",{value:"20.11.0"})',
        'server/start.js',
      ],
      { encoding: 'utf8' },
    );
    expect(faked.status).toBe(1);
    expect(faked.stderr).toContain('Spaceguard needs Node 24.2 or newer; this is Node 20.11.0.');
    expect(faked.stderr).toContain('npm start');
    return;
  }
  const run = spawnSync('/usr/bin/node', ['server/start.js'], { encoding: 'utf8' });
  expect(run.status).toBe(1);
  expect(run.stderr).toContain(`Spaceguard needs Node 24.2 or newer; this is Node ${version}.`);
  expect(run.stderr).toContain('npm start');
});
