import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../../..');
const DEPCRUISE = path.join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

/** The layer and cycle violations dependency-cruiser finds under `cwd`/src with the project's rules. */
async function violations(cwd: string): Promise<Violation[]> {
  const out = await run(process.execPath, [DEPCRUISE, 'src', '--config', path.join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'json', '--no-progress'], {
    cwd,
    maxBuffer: 64 * 1024 * 1024,
  }).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
  return (JSON.parse(out.stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

describe('architecture (dependency-cruiser, .dependency-cruiser.cjs)', function () {
  this.timeout(120_000);

  it('the source keeps the layer direction and has no import cycle', async () => {
    const found = await violations(ROOT);
    assert.deepEqual(found.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`), []);
  });

  it('the rules catch a layer violation, a shell importing the other shell, vscode outside the client and a cycle', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'layers-'));
    try {
      const files: Record<string, string> = {
        'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'commonjs', moduleResolution: 'node', strict: true } }),
        'src/core/pure.ts': "import { serve } from '../server/serve';\nexport const x = serve;\n",
        'src/core/reads.ts': "import { readFileSync } from 'node:fs';\nexport const y = readFileSync;\n",
        'src/core/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
        'src/core/b.ts': "import { a } from './a';\nexport const b = () => a;\n",
        'src/server/serve.ts': "import { check } from '../cli/check';\nexport const serve = check;\n",
        'src/cli/check.ts': 'export const check = 1;\n',
        'src/node/editor.ts': "import * as vscode from 'vscode';\nexport const v = vscode;\n",
        'src/node/fine.ts': "import { readFileSync } from 'node:fs';\nimport { a } from '../core/a';\nexport const z = [readFileSync, a];\n",
      };
      for (const [file, text] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        writeFileSync(path.join(dir, file), text);
      }
      const found = await violations(dir);
      const rules = new Set(found.map((v) => v.rule.name));
      assert.deepEqual([...rules].sort(), ['core-is-pure', 'no-circular', 'shells-apart', 'vscode-in-client-only'], JSON.stringify(found.map((v) => [v.rule.name, v.from, v.to])));
      assert.ok(found.some((v) => v.rule.name === 'core-is-pure' && v.from === 'src/core/pure.ts'), 'core importing the server');
      assert.ok(found.some((v) => v.rule.name === 'core-is-pure' && v.from === 'src/core/reads.ts'), 'core importing node:fs');
      assert.ok(!found.some((v) => v.from === 'src/node/fine.ts'), 'node may use the file system and core');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
