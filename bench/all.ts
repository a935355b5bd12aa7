/**
 * `npm run bench`: the engine bench (real library), the scale bench (generated libraries) and
 * the embedder bench (ONNX vs TF.js), one process each. Never pass/fail.
 *
 *   npm run bench -- [--only engine,scale,embedder] [--skip scale] [flags passed to the parts]
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

const PARTS = ['engine', 'scale', 'embedder'] as const;
const args = process.argv.slice(2);
const take = (flag: string): string[] | undefined => {
  const i = args.indexOf(flag);
  if (i < 0) return undefined;
  const v = args.splice(i, 2)[1] ?? '';
  return v.split(',').filter(Boolean);
};
const only = take('--only');
const skip = take('--skip') ?? [];
const unknown = [...(only ?? []), ...skip].filter((p) => !(PARTS as readonly string[]).includes(p));
if (unknown.length) {
  console.error(`unknown bench part(s): ${unknown.join(', ')} (parts: ${PARTS.join(', ')})`);
  process.exit(2);
}
let failed = false;
for (const part of PARTS) {
  if ((only && !only.includes(part)) || skip.includes(part)) continue;
  console.log(`\n## ${part}\n`);
  // Flags other parts do not know are ignored by them (parseArgs is given only its own).
  const partArgs = part === 'embedder' ? [] : args;
  const r = spawnSync(process.execPath, ['--max-old-space-size=6144', path.join(__dirname, `${part}.js`), ...partArgs], { stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`${part} bench exited with ${r.status}`);
    failed = true;
  }
}
process.exitCode = failed ? 1 : 0;
