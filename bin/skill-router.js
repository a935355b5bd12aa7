#!/usr/bin/env node
'use strict';
const { main } = require('../dist/cli.js');

main({
  argv: process.argv.slice(2),
  cwd: process.cwd(),
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
  env: process.env,
  isTTY: Boolean(process.stderr.isTTY),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`skill-router: ${err && err.stack ? err.stack : err}\n`);
    process.exitCode = 2;
  },
);
