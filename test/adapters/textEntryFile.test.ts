import { strict as assert } from 'node:assert';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { sketchOf, textSignature } from '../../src/core/analysis/copies';
import { templateHash, type TextEntry } from '../../src/core/analysis/pairCache';
import type { PairFinding } from '../../src/core/analysis/types';
import { PAIR_CACHE_FILE, readPairCache, writePairCache } from '../../src/node/pairCacheFile';
import { FileTextEntryStore, TEXT_ENTRY_FILE } from '../../src/node/textEntryFile';

const entry = (description: string, body: string, keys: string[]): TextEntry => ({
  sketch: sketchOf(textSignature({ description, body })),
  templates: keys.map(templateHash),
});
const plain = (e: TextEntry | undefined) => e && { ...e.sketch, minhash: [...e.sketch.minhash], listingMinhash: [...e.sketch.listingMinhash], templates: [...e.templates] };

describe('FileTextEntryStore (copy sketches beside the pair findings)', () => {
  let dir: string;
  const warnings: string[] = [];
  const logger = { debug() {}, info() {}, warn: (m: string) => warnings.push(m), error() {} };
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'sr-texts-'));
    warnings.length = 0;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const a = entry('Extract tables from PDF files.', 'Use pdfplumber on every page, then check the totals. '.repeat(5), ['extract tables from pdf files', 'scanned invoices']);
  const b = entry('写一份周报', '', []);

  it('round-trips sketches and 53-bit template hashes, and keeps only what a flush is told to', async () => {
    const s = await FileTextEntryStore.open(dir, logger);
    s.set('h1', a);
    s.set('h2', b);
    assert.equal(s.changed, true);
    await s.flush(new Set(['h1', 'h2']));
    assert.equal(s.changed, false);
    const t = await FileTextEntryStore.open(dir, logger);
    assert.deepEqual(plain(t.get('h1')), plain(a));
    assert.deepEqual(plain(t.get('h2')), plain(b));
    assert.ok(a.templates.some((h) => h > 2 ** 32), 'a hash over 32 bits survives');
    await t.flush(new Set(['h2']));
    assert.equal((await FileTextEntryStore.open(dir, logger)).get('h1'), undefined);
    assert.deepEqual(warnings, []);
  });

  it('a damaged file is reported and starts empty; nothing else is lost', async () => {
    const s = await FileTextEntryStore.open(dir, logger);
    s.set('h1', a);
    await s.flush(new Set(['h1']));
    const file = path.join(dir, TEXT_ENTRY_FILE);
    const bytes = readFileSync(file);
    bytes[bytes.length - 3] ^= 0xff;
    writeFileSync(file, bytes);
    const t = await FileTextEntryStore.open(dir, logger);
    assert.equal(t.get('h1'), undefined);
    assert.match(warnings.join('\n'), /copy sketches .* is corrupt \(checksum mismatch\); rebuilding it/);
  });

  it('writePairCache writes what toJSON gives, many findings a slice at a time, and readPairCache reads it back', async () => {
    const cache = await readPairCache(dir, logger);
    const findings = Array.from({ length: 4501 }, (_, i) => ({ kind: 'copy', a: `x/${i}`, b: `y/${i}`, similarity: 0.9, reason: 'function_redundant', explanation: `"y/${i}" is longer` }) as PairFinding);
    cache.setResult('lib-1', findings);
    cache.setResult('lib-2', findings.slice(1).map((f) => ({ ...f })));
    await writePairCache(dir, cache, logger);
    const text = readFileSync(path.join(dir, PAIR_CACHE_FILE), 'utf8');
    assert.deepEqual(JSON.parse(text), JSON.parse(JSON.stringify(cache)));
    assert.equal(JSON.parse(text).findings.length, 4501);
    const again = await readPairCache(dir, logger);
    assert.deepEqual(again.result('lib-1'), findings);
    assert.deepEqual(again.result('lib-2'), findings.slice(1));
    assert.deepEqual(warnings, []);
  });

  it('readPairCache opens it on the first scan; writePairCache writes new entries even without new results', async () => {
    const cache = await readPairCache(dir, logger);
    assert.equal(readdir(dir).includes(TEXT_ENTRY_FILE), false);
    await cache.prepare();
    cache.noteLibrary(new Set(['h1']));
    cache.text('h1', () => a);
    assert.equal(cache.textsMade, 1);
    await writePairCache(dir, cache, logger);
    assert.deepEqual(readdir(dir), [TEXT_ENTRY_FILE], 'no results: only the entries are written');
    const again = await readPairCache(dir, logger);
    await again.prepare();
    let made = 0;
    assert.deepEqual(plain(again.text('h1', () => (made++, b))), plain(a));
    assert.equal(made, 0);
  });
});

function readdir(dir: string): string[] {
  return readdirSync(dir).sort();
}
