// Runs the compiled mocha suites and closes with the line CI reads: "N passed, N failed".
// Usage: node test/run.mjs [--grep pattern] [dir ...]   (dirs under out/test; default all)
import Mocha from 'mocha';
import { readdirSync, statSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const args = process.argv.slice(2);
let grep;
const dirs = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--grep') grep = args[++i];
  else dirs.push(args[i]);
}
const roots = (dirs.length ? dirs : ['unit', 'adapters', 'cli', 'server', 'dom', 'package']).map((d) => join('out/test', d));

function list(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return list(path);
    return name.endsWith('.test.js') ? [resolve(path)] : [];
  });
}

const mocha = new Mocha({ timeout: 120_000, reporter: 'spec', grep });
for (const file of roots.flatMap(list).sort()) mocha.addFile(file);

let passed = 0;
let failed = 0;
const runner = mocha.run((failures) => {
  console.log(`\n${passed} passed, ${failed} failed`);
  process.exitCode = failures > 0 || passed === 0 ? 1 : 0;
});
runner.on('pass', () => passed++);
runner.on('fail', () => failed++);
