// Fault injection through the real entry points (`openLibrary` and the CLI's `main()`): a damaged
// or missing model file, damaged caches, unreadable files and folders, link loops, a cache folder
// that cannot be written, and a large tree with few skills. Each must be recovered from or
// degraded with a message that names the file and says what to do; lexical routing and the
// front-matter checks keep working without the model.
import { strict as assert } from 'node:assert';
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  promises as fsp,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { main } from '../../src/cli/main';
import { defaultModelDir, openLibrary, type OpenLibraryOptions } from '../../src/node/library';
import { VECTOR_FILE } from '../../src/node/vectorCache';
import { ANALYSIS_FILE } from '../../src/node/analysisSnapshot';
import { PARSE_FILE } from '../../src/node/parseSnapshot';
import { SEGMENTS_FILE } from '../../src/node/segmentMemo';
import { REFERENCE_FILE } from '../../src/node/referenceCache';
import { FIELD_FILE } from '../../src/node/fieldStore';

const ROOT = path.resolve(__dirname, '../../..');
const EXAMPLES = path.join(ROOT, 'examples/library');
const REQUEST = 'extract the text and tables from a scanned PDF invoice';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function cli(argv: string[], cwd = ROOT): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await main({ argv, cwd, stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), env: {} });
  return { code, stdout, stderr };
}

function logger(into: string[]) {
  return { debug() {}, info() {}, warn: (m: string) => into.push(m), error: (m: string) => into.push(m) };
}

describe('faults', function () {
  this.timeout(120_000);
  let tmp: string;
  before(() => (tmp = mkdtempSync(path.join(tmpdir(), 'sr-faults-'))));
  after(() => rmSync(tmp, { recursive: true, force: true }));

  describe('model files', () => {
    /**
     * A copy of the built-in model inside a folder that looks like the installed package
     * (`<root>/package.json` named skill-router, `<root>/models/use-lite`), so messages suggest
     * `npm run build:models` as they would for the real one; or, with `builtIn` false, a user model.
     */
    function modelCopy(name: string, builtIn = true): string {
      const pkg = path.join(tmp, name);
      const dir = builtIn ? path.join(pkg, 'models', 'use-lite') : path.join(pkg, 'my-model');
      mkdirSync(path.join(dir, 'onnx'), { recursive: true });
      if (builtIn) writeFileSync(path.join(pkg, 'package.json'), '{"name": "skill-router"}');
      const src = defaultModelDir();
      for (const f of ['manifest.json', 'tokenizer.json', 'onnx/model.onnx']) copyFileSync(path.join(src, f), path.join(dir, f));
      return dir;
    }

    async function routesLexically(modelDir: string, file: RegExp, fix: RegExp): Promise<void> {
      // Through openLibrary: the reason is kept, routing and validation go on.
      const warnings: string[] = [];
      const svc = await openLibrary({ root: EXAMPLES, modelDir, cacheDir: path.join(tmp, 'cache-model'), logger: logger(warnings) });
      const stats = await svc.index();
      assert.equal(stats.model, null);
      assert.match(stats.denseDisabled ?? '', file);
      assert.match(stats.denseDisabled ?? '', fix);
      assert.ok(warnings.some((w) => file.test(w) && fix.test(w)), warnings.join('\n'));
      const r = await svc.route(REQUEST);
      assert.equal(r.candidates[0].skillId, 'pdf-extract');
      assert.equal(r.candidates[0].scores.dense, null);
      assert.ok('disabled' in r.dense);
      assert.ok(svc.skills().length >= 10, 'every skill is still indexed');
      await svc.dispose();
      // Through the CLI: exit 0, the ranking on stdout, the file and the fix on stderr.
      const run = await cli(['route', REQUEST, '--library', EXAMPLES, '--model', modelDir, '--cache', path.join(tmp, 'cache-cli'), '--json']);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(JSON.parse(run.stdout).results[0].id, 'pdf-extract');
      assert.match(run.stderr, file);
      assert.match(run.stderr, fix);
      assert.match(run.stderr, /routing by words only/);
    }

    it('a truncated model.onnx: named, `npm run build:models`, routes by words', async () => {
      const dir = modelCopy('truncated');
      const onnx = path.join(dir, 'onnx', 'model.onnx');
      truncateSync(onnx, 1_000_000);
      await routesLexically(dir, new RegExp(`${onnx.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: sha256 mismatch`), /Rebuild it with `npm run build:models`/);
    });

    it('a missing model.onnx', async () => {
      const dir = modelCopy('missing');
      rmSync(path.join(dir, 'onnx', 'model.onnx'));
      await routesLexically(dir, /onnx[/\\]model\.onnx: is missing \(manifest\.json `onnx`\)/, /npm run build:models/);
    });

    it('a tokenizer.json that is not the one the manifest hashes', async () => {
      const dir = modelCopy('wrong-hash');
      const tok = path.join(dir, 'tokenizer.json');
      writeFileSync(tok, `${readFileSync(tok, 'utf8')}\n`);
      await routesLexically(dir, /tokenizer\.json: sha256 mismatch: the file is [0-9a-f]{64}, manifest\.json expects 8705f1b2/, /npm run build:models/);
    });

    it('a damaged manifest.json', async () => {
      const dir = modelCopy('bad-manifest');
      writeFileSync(path.join(dir, 'manifest.json'), '{"id": "use-lite-en@1", ');
      await routesLexically(dir, /manifest\.json: is not valid JSON/, /npm run build:models/);
    });

    it('a user model whose onnx file is cut short (no sha256 to catch it): onnxruntime refuses, re-download', async () => {
      const dir = modelCopy('user', false);
      const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
      delete manifest.sha256;
      writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
      truncateSync(path.join(dir, 'onnx', 'model.onnx'), 4096);
      await routesLexically(dir, /model\.onnx: onnxruntime cannot load it .*the file is damaged or not an ONNX model/, /Re-download the file/);
    });

    it('validate needs no model at all: front-matter checks run with a broken one', async () => {
      const dir = modelCopy('validate');
      truncateSync(path.join(dir, 'onnx', 'model.onnx'), 10);
      const run = await cli(['validate', path.join(ROOT, 'test/fixtures/check-lib/skills'), '--model', dir]);
      assert.ok(run.code === 0 || run.code === 1, run.stderr);
      assert.match(run.stdout, /\d+ skills checked/);
    });
  });

  describe('caches (real model)', () => {
    const open = (cacheDir: string, warnings: string[], extra: Partial<OpenLibraryOptions> = {}) =>
      openLibrary({ root: EXAMPLES, cacheDir, logger: logger(warnings), ...extra });

    async function indexed(cacheDir: string, extra: Partial<OpenLibraryOptions> = {}) {
      const warnings: string[] = [];
      const svc = await open(cacheDir, warnings, extra);
      const stats = await svc.index();
      const r = await svc.route(REQUEST);
      await svc.dispose();
      assert.equal(r.candidates[0].skillId, 'pdf-extract');
      return { stats, warnings, route: r };
    }

    function vectorsFile(cacheDir: string): string {
      // The model's folder: the one entry that is not a file of the library's own caches.
      const model = readdirSync(cacheDir).find((f) => ![ANALYSIS_FILE, PARSE_FILE, SEGMENTS_FILE, REFERENCE_FILE, FIELD_FILE].includes(f))!;
      return path.join(cacheDir, model, VECTOR_FILE);
    }

    for (const [what, damage] of [
      ['truncated', (f: string) => truncateSync(f, Math.floor(readFileSync(f).length / 2))],
      ['garbage', (f: string) => writeFileSync(f, 'not a vector cache')],
      ['empty', (f: string) => writeFileSync(f, '')],
      ['NaN rows', (f: string) => {
        const b = readFileSync(f);
        b.writeFloatLE(NaN, b.length - 8);
        writeFileSync(f, b);
      }],
    ] as const) {
      it(`vectors.bin ${what}: warned, re-embedded, written back`, async () => {
        const cache = path.join(tmp, `vectors-${what.replace(/\W/g, '')}`);
        const first = await indexed(cache);
        assert.equal(first.stats.embedded, first.stats.skills);
        damage(vectorsFile(cache));
        const second = await indexed(cache);
        assert.equal(second.stats.cached, 0);
        assert.equal(second.stats.embedded, second.stats.skills);
        assert.ok(second.warnings.some((w) => w.startsWith(`vector cache ${vectorsFile(cache)} is corrupt`) && w.endsWith('rebuilding it')), second.warnings.join('\n'));
        const third = await indexed(cache);
        assert.equal(third.stats.cached, third.stats.skills, 'the rebuilt file is read back');
        assert.deepEqual(third.warnings, []);
      });
    }

    for (const [what, damage] of [
      ['bytes flipped in the middle (loaded silently, then crashed the process at search)', (f: string) => {
        const b = readFileSync(f);
        for (let i = Math.floor(b.length / 2); i < b.length / 2 + 2000 && i < b.length; i += 7) b[i] ^= 0x55;
        writeFileSync(f, b);
      }],
      ['truncated', (f: string) => truncateSync(f, Math.floor(readFileSync(f).length / 3))],
      ['replaced by garbage', (f: string) => writeFileSync(f, 'garbage')],
    ] as const) {
      it(`HNSW graph ${what}: warned, rebuilt, routes`, async () => {
        const cache = path.join(tmp, `hnsw-${what.split(' ')[0]}`);
        // A tiny threshold makes the example library use (and persist) the graph.
        const opts = { exactSearchBelow: 4 };
        await indexed(cache, opts);
        const dir = path.dirname(vectorsFile(cache));
        const graph = readdirSync(dir).find((f) => f.startsWith('hnsw-') && f.endsWith('.bin'));
        assert.ok(graph, readdirSync(dir).join(', '));
        const file = path.join(dir, graph);
        const good = readFileSync(file);
        damage(file);
        const second = await indexed(cache, opts);
        assert.ok(second.warnings.some((w) => w.startsWith(`HNSW cache ${file} is unreadable`) && w.endsWith('rebuilding it')), second.warnings.join('\n'));
        assert.ok(readFileSync(file).equals(good), 'the graph is written back as it was');
        const third = await indexed(cache, opts);
        assert.deepEqual(third.warnings, []);
      });
    }

    it('a cache folder that cannot be written: routing works, the warnings say what was not saved', async () => {
      const blocker = path.join(tmp, 'cache-is-a-file');
      writeFileSync(blocker, 'x');
      const { stats, warnings } = await indexed(blocker, { exactSearchBelow: 4 });
      assert.equal(stats.embedded, stats.skills);
      assert.ok(warnings.some((w) => /could not write the vector cache/.test(w)), warnings.join('\n'));
      assert.ok(warnings.some((w) => /could not save the HNSW graph .* it is rebuilt on the next start/.test(w)), warnings.join('\n'));
    });
  });

  describe('files and folders', () => {
    let lib: string;
    beforeEach(() => {
      lib = mkdtempSync(path.join(tmp, 'lib-'));
      cpSync(EXAMPLES, lib, { recursive: true });
    });

    /** Makes fs calls on `target` fail with `code`, as a permission problem would (tests run as root here). */
    function failing<K extends 'readFile' | 'readdir'>(method: K, target: string, code: string): () => void {
      const original = fsp[method];
      (fsp as Record<K, unknown>)[method] = (async (p: unknown, ...rest: unknown[]) => {
        if (String(p) === target) throw Object.assign(new Error(`${code}: injected, ${method} '${target}'`), { code });
        return (original as (...a: unknown[]) => unknown).call(fsp, p, ...rest);
      }) as unknown;
      return () => {
        (fsp as Record<K, unknown>)[method] = original;
      };
    }

    it('an unreadable SKILL.md: left out and reported; the others route; validate and route say so', async () => {
      const file = path.join(lib, 'pdf-build', 'SKILL.md');
      if (process.getuid?.() !== 0) chmodSync(file, 0o000);
      const restore = failing('readFile', file, 'EACCES');
      try {
        const svc = await openLibrary({ root: lib, noModel: true, cacheDir: path.join(tmp, 'c1') });
        const stats = await svc.index();
        assert.equal(stats.failed, 1);
        assert.deepEqual(svc.failures(), [{ path: 'pdf-build/SKILL.md', message: 'cannot read SKILL.md (EACCES); check that it exists and that you may read it' }]);
        assert.ok(!svc.skills().some((s) => s.id === 'pdf-build'));
        assert.equal((await svc.route(REQUEST)).candidates[0].skillId, 'pdf-extract');
        await svc.dispose();
        const validate = await cli(['validate', lib]);
        assert.equal(validate.code, 1);
        assert.match(validate.stdout, /^pdf-build\/SKILL\.md: error file\.unreadable: cannot read SKILL\.md \(EACCES\); check that it exists and that you may read it$/m);
        const route = await cli(['route', REQUEST, '--library', lib, '--no-model']);
        assert.equal(route.code, 0);
        assert.match(route.stderr, /note: 1 entry was left out .*`skill-router validate` lists them/);
      } finally {
        restore();
        chmodSync(file, 0o644);
      }
    });

    it('an unreadable folder: reported with what to check; the rest is indexed', async () => {
      const folder = path.join(lib, 'k8s-deploy');
      const restore = failing('readdir', folder, 'EACCES');
      try {
        const svc = await openLibrary({ root: lib, noModel: true, cacheDir: path.join(tmp, 'c2') });
        await svc.index();
        assert.deepEqual(svc.failures(), [{ path: 'k8s-deploy', message: 'cannot read folder (EACCES); check its permissions' }]);
        assert.ok(svc.skills().length >= 10);
        await svc.dispose();
      } finally {
        restore();
      }
    });

    it('symbolic link loops and aliases: index reports the loops, lists each skill once, exits 0', async () => {
      symlinkSync(lib, path.join(lib, 'pdf-extract', 'back-to-root'));
      symlinkSync('..', path.join(lib, 'docx-edit', 'up'));
      symlinkSync(path.join(lib, 'loop-a'), path.join(lib, 'loop-b'));
      symlinkSync(path.join(lib, 'loop-b'), path.join(lib, 'loop-a'));
      mkdirSync(path.join(lib, '.claude', 'skills'), { recursive: true });
      symlinkSync('../../pdf-build', path.join(lib, '.claude', 'skills', 'pdf-build'));
      const run = await cli(['index', '--library', lib, '--no-model', '--json']);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(JSON.parse(run.stdout).skills, readdirSync(EXAMPLES).length);
      assert.match(run.stderr, /^pdf-extract\/back-to-root: symbolic link loop: it points to a folder that contains it; not followed$/m);
      assert.match(run.stderr, /^docx-edit\/up: symbolic link loop/m);
      assert.match(run.stderr, /^loop-a: symbolic link loop: the link leads back to itself$/m);
      assert.doesNotMatch(run.stderr, /pdf-build/, 'an alias is not a problem');
    });

    it('a tree of 5,000 files with few skills: every skill found, nothing else', async () => {
      const big = mkdtempSync(path.join(tmp, 'big-'));
      const expected: string[] = [];
      for (let d = 0; d < 100; d++) {
        const dir = path.join(big, `pkg-${d}`, 'src', `mod-${d % 7}`);
        mkdirSync(dir, { recursive: true });
        for (let f = 0; f < 48; f++) writeFileSync(path.join(dir, `file-${f}.ts`), '');
        if (d % 10 === 0) {
          const s = path.join(big, `pkg-${d}`, 'skills', `skill-${d}`);
          mkdirSync(s, { recursive: true });
          writeFileSync(path.join(s, 'SKILL.md'), `---\nname: skill-${d}\ndescription: Handles package ${d}.\n---\n`);
          expected.push(`pkg-${d}/skills/skill-${d}`);
        }
      }
      mkdirSync(path.join(big, 'node_modules', 'dep', 'skills', 'hidden'), { recursive: true });
      writeFileSync(path.join(big, 'node_modules', 'dep', 'skills', 'hidden', 'SKILL.md'), '---\nname: hidden\ndescription: x\n---\n');
      for (let f = 0; f < 190; f++) writeFileSync(path.join(big, 'node_modules', 'dep', `f${f}.js`), '');
      const svc = await openLibrary({ root: big, noModel: true, cacheDir: path.join(tmp, 'c3') });
      const stats = await svc.index();
      assert.deepEqual(svc.skills().map((s) => s.id), expected.sort());
      assert.equal(stats.failed, 0);
      assert.deepEqual(svc.skills().flatMap((s) => s.findings), []);
      await svc.dispose();
    });
  });

  it('no SKILL.md at all, or a library that does not exist: a clear CLI error, exit 2', async () => {
    const empty = mkdtempSync(path.join(tmp, 'empty-'));
    const run = await cli(['route', 'anything', '--library', empty, '--no-model']);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /^skill-router: no SKILL\.md found under /m);
    const missing = await cli(['index', '--library', path.join(tmp, 'nope'), '--no-model']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /^skill-router: library folder not found: .*nope$/m);
    assert.ok(!existsSync(path.join(tmp, 'nope')));
  });
});
