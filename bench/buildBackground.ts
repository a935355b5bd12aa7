/**
 * Builds the background term statistics (models/background/df.bin + manifest.json) from a large
 * skill library, by default the shared corpus: how many of its skills hold each analysed term, as
 * a count-min sketch of numbers (src/core/index/background.ts), never its text.
 *
 *   node esbuild.mjs --bench && node out/bench/buildBackground.js [--library DIR] [--out models/background] [--check]
 *
 * --check rebuilds and compares with the shipped file (exit 1 when they differ).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { BackgroundFrequencies } from '../src/core/index/background';
import { analysisTag } from '../src/core/index/caches';
import { openLibrary } from '../src/node/library';

const { values } = parseArgs({
  options: {
    library: { type: 'string', default: path.resolve('../shared/corpus/skills') },
    out: { type: 'string', default: path.resolve('models/background') },
    check: { type: 'boolean' },
  },
});

async function main(): Promise<void> {
  const svc = await openLibrary({ root: values.library!, noModel: true, settings: { backgroundWeight: 0 } });
  const stats = await svc.index();
  const lexical = svc.pipeline.firstStage.lexical;
  const counts = [...lexical.frequencies()].sort((a, b) => (a[0] < b[0] ? -1 : 1));
  const sketch = BackgroundFrequencies.build(counts, stats.skills, { rows: 2, bits: 17 });
  await svc.dispose();
  const bytes = sketch.encode();
  // How much the sketch overstates: the mean over terms of (read back - true) for rare terms.
  const rare = counts.filter(([, n]) => n <= 2);
  const over = rare.reduce((a, [t, n]) => a + (sketch.df(t) - n), 0) / Math.max(1, rare.length);
  const file = path.join(values.out!, 'df.bin');
  if (values.check) {
    const shipped = readFileSync(file);
    const same = Buffer.compare(shipped, Buffer.from(bytes)) === 0;
    process.stdout.write(`background statistics ${same ? 'match' : 'differ from'} the shipped ${file}\n`);
    process.exitCode = same ? 0 : 1;
    return;
  }
  mkdirSync(values.out!, { recursive: true });
  writeFileSync(file, bytes);
  const manifest = {
    id: 'skill-router-background@1',
    kind: 'background-term-frequencies',
    file: 'df.bin',
    sha256: createHash('sha256').update(bytes).digest('hex'),
    bytes: bytes.length,
    pool: stats.skills,
    terms: counts.length,
    sketch: { rows: 2, bits: 17, meanOverstatementOfRareTerms: Number(over.toFixed(3)) },
    analysis: analysisTag(),
    builtBy: 'bench/buildBackground.ts',
    source: 'document frequencies of the analysed terms of the shared test corpus (2,817 public SKILL.md files); counts only, no text',
    license: 'Apache-2.0',
  };
  writeFileSync(path.join(values.out!, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  process.stdout.write(`wrote ${file}: ${counts.length} terms of ${stats.skills} skills in ${bytes.length} bytes (rare terms overstated by ${over.toFixed(2)} on average)\n`);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : err}\n`);
  process.exitCode = 2;
});
