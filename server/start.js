// The entry point of `npm start` and of a direct `node server/start.js`. Plain JavaScript on purpose: an older
// Node cannot even load a .ts file, so this is the one place that can tell the user what to do instead.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 24 || (major === 24 && minor < 2)) {
  console.error(
    `Spaceguard needs Node 24.2 or newer; this is Node ${process.versions.node}.\n` +
      'Run it with `npm start` (npm scripts use the Node 24 that `npm install` put in node_modules/.bin),\n' +
      'or directly with `node_modules/.bin/node server/start.js`.',
  );
  process.exit(1);
}
const { start, stopOnSignal } = await import('./main.ts');
const running = await start();
stopOnSignal(running.stop);
