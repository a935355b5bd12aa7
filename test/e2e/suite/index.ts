/**
 * extensionTestsPath entry: VS Code's extension host loads it and calls `run()` (the contract of
 * @vscode/test-electron). Runs every *.test.js next to it and writes the counts for the runner.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

export function run(): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mod = require('mocha');
  const Mocha = (mod.default ?? mod) as typeof import('mocha');
  const mocha = new Mocha({ ui: 'bdd', timeout: 180_000, color: false, reporter: 'spec' });
  for (const f of readdirSync(__dirname)) if (f.endsWith('.test.js')) mocha.addFile(path.join(__dirname, f));
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      if (process.env.E2E_RESULT_FILE) writeFileSync(process.env.E2E_RESULT_FILE, JSON.stringify({ passes: runner.stats?.passes ?? 0, failures }));
      if (failures) reject(new Error(`${failures} tests failed`));
      else resolve();
    });
  });
}
