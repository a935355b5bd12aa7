/**
 * A large workspace built from a real library (default: the 2,817-skill corpus) with varied
 * copies, for the language server's scale figures (issue 24: a 20,000-skill workspace). Copy `i`
 * of each skill gets its own folder and name (`<name>-v<i>`), a description with every
 * (i + 4)th word left out and a one-word tag of the copy, and the body as it is: real text, real
 * lengths and scripts, no two descriptions the same. Deterministic. Writes nothing but the copies.
 *
 *   node esbuild.mjs --bench && node out/bench/variedCopies.js --out /tmp/ws20k [--library DIR] [--skills 20000]
 *   node out/bench/lsp.js --library /tmp/ws20k --edits 10 --cache /tmp/ws20k-cache
 */
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { parseFrontMatter } from '../src/core/parse/frontMatter';
import { skillFiles, varyDescription } from './skillTree';

const { values } = parseArgs({
  options: {
    library: { type: 'string', default: path.resolve('../shared/corpus/skills') },
    out: { type: 'string' },
    skills: { type: 'string', default: '20000' },
  },
});
if (!values.out) {
  console.error('usage: node out/bench/variedCopies.js --out DIR [--library DIR] [--skills 20000]');
  process.exit(2);
}

const sources = skillFiles(values.library!);
const target = Number(values.skills);
rmSync(values.out, { recursive: true, force: true });
let written = 0;
for (let i = 0; written < target; i++) {
  for (const file of sources) {
    if (written >= target) break;
    const text = readFileSync(file, 'utf8');
    const fm = parseFrontMatter(text);
    const name = typeof fm.data.name === 'string' ? fm.data.name : path.basename(path.dirname(file));
    const description = typeof fm.data.description === 'string' ? fm.data.description : '';
    const body = fm.hasFrontMatter ? fm.body : text;
    const id = i === 0 ? name : `${name}-v${i}`;
    const collection = path.relative(values.library!, file).split(path.sep)[0];
    const dir = path.join(values.out, i === 0 ? collection : `${collection}-v${i}`, id.replace(/[^\p{L}\p{N}._-]+/gu, '-'));
    mkdirSync(dir, { recursive: true });
    const desc = i === 0 ? description : varyDescription(description, i);
    writeFileSync(path.join(dir, 'SKILL.md'), `---\nname: ${JSON.stringify(id)}\ndescription: ${JSON.stringify(desc)}\n---\n${body}`);
    written++;
  }
}
const bytes = skillFiles(values.out).reduce((n, f) => n + statSync(f).size, 0);
console.log(`${written} skills from ${sources.length} in ${values.out} (${(bytes / 1048576).toFixed(1)} MB)`);
