// The panel's DOM tests drive a headless Chromium (test/dom/harness.ts). `npm test` runs this
// first, so the README's test command passes on a fresh machine by itself: when no Chromium is at
// $CHROMIUM_PATH (default /usr/bin/chromium), Debian's package is installed with apt-get (as root,
// or with `sudo -n`), which needs only the Debian mirror. Where it cannot install, it says what to
// do and exits 1 before any test runs (a clear stop instead of two failed suites at the end).
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (existsSync(path)) process.exit(0);

const fix = `install it (Debian/Ubuntu: sudo apt-get install -y chromium) or set CHROMIUM_PATH to a Chromium binary`;
if (process.env.CHROMIUM_PATH) {
  console.error(`npm test: CHROMIUM_PATH is ${path}, which does not exist; ${fix}.`);
  process.exit(1);
}
const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
if (process.platform !== 'linux' || !has('apt-get')) {
  console.error(`npm test: the DOM tests need Chromium at ${path} and this machine has no apt-get; ${fix}.`);
  process.exit(1);
}
const root = typeof process.getuid === 'function' && process.getuid() === 0;
const prefix = root ? [] : has('sudo') ? ['sudo', '-n'] : null;
if (!prefix) {
  console.error(`npm test: the DOM tests need Chromium at ${path}; not root and no sudo to install it: ${fix}.`);
  process.exit(1);
}
console.error(`npm test: no Chromium at ${path}; installing Debian's chromium for the DOM tests (apt-get, about a minute)...`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
for (const args of [['apt-get', 'update', '-qq'], ['apt-get', 'install', '-y', '-qq', 'chromium']]) {
  const cmd = [...prefix, ...args];
  const r = spawnSync(cmd[0], cmd.slice(1), { stdio: ['ignore', 'ignore', 'inherit'], env });
  if (r.status !== 0) {
    console.error(`npm test: \`${cmd.join(' ')}\` failed (exit ${r.status ?? r.signal}); ${fix}.`);
    process.exit(1);
  }
}
if (!existsSync(path)) {
  console.error(`npm test: apt-get installed chromium but ${path} is still missing; ${fix}.`);
  process.exit(1);
}
console.error(`npm test: Chromium installed at ${path}.`);
