// Inputs the fuzzer (test/helpers/fuzzProperties.ts, bench/fuzz.ts) found to break something,
// kept as fixed cases. Each names the seed and path fast-check printed, or the generator it came
// from, and checks the behaviour that was wrong.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parseFrontMatter } from '../../src/core/parse/frontMatter';
import { parseSkill } from '../../src/core/parse/skillDoc';
import { validateFrontMatter } from '../../src/core/parse/validate';
import { PROFILES } from '../../src/core/profiles';
import { createSkillService } from '../../src/core/route/skillService';
import { analyse } from '../../src/core/text/analyse';
import { cleanMarkdown, splitPassages } from '../../src/core/text/passages';
import { parseConfig } from '../../src/cli/check/config';
import { parseRoutingTests } from '../../src/cli/check/routingTests';
import { UsageError } from '../../src/cli/io';
import { FsWorkspace } from '../../src/node/fsWorkspace';
import { HnswIndex } from '../../src/node/hnswIndex';
import { JsonlWorkspace } from '../../src/node/jsonlWorkspace';
import { FileVectorCache, VECTOR_FILE } from '../../src/node/vectorCache';
import { FakeEmbedder, MemoryWorkspace } from '../helpers/fakes';
import { checkFindings, checkSkill, cleanMarkdownByRegex } from '../helpers/fuzzProperties';

describe('fuzz regressions', () => {
  describe('front-matter keys named like Object.prototype members', () => {
    // Generator: TRICKY_KEYS. `keyRanges.constructor` found Object itself, so the finding's
    // range was a function: JSON dropped it and editors got a diagnostic without a position.
    for (const key of ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__', '__defineGetter__']) {
      it(`${key}: the finding points at the key's line`, () => {
        const text = `---\nname: a\ndescription: d\n${key}: x\n---\nbody\n`;
        const doc = parseSkill({ id: 'a', path: 'a/SKILL.md', folderName: 'a' }, text, PROFILES);
        checkSkill(doc, text);
        const unknown = doc.findings.find((f) => f.code === 'frontmatter.unknown-key');
        assert.ok(unknown, JSON.stringify(doc.findings));
        assert.deepEqual(unknown.range, { start: { line: 3, character: 0 }, end: { line: 3, character: key.length + 3 } });
        assert.ok(Object.hasOwn(doc.keyRanges, key));
      });
    }

    it('a key range lookup for an absent inherited name falls back to the block', () => {
      const fm = { ...parseFrontMatter('---\nname: a\ndescription: d\n---\n'), data: { name: 'a', description: 'd', toString: 1 } };
      const findings = validateFrontMatter(fm, 'a');
      checkFindings(findings);
      assert.deepEqual(findings[0].range, fm.blockRange);
    });
  });

  describe('front-matter blocks gray-matter handled badly', function () {
    this.timeout(30_000);
    // Bench seed 1659726675: slowest input 68 s, a block of 60,000 blank lines (gray-matter's
    // empty-block check, /^\s*#[^\n]+/gm, is quadratic in blank lines).
    for (const blank of ['\n', ' \n', '\t\n', '\r\n', '# comment\n']) {
      it(`200,000 lines of ${JSON.stringify(blank)} parse in linear time`, () => {
        const text = `---\nname: a\n${blank.repeat(200_000)}description: d\n---\nbody`;
        const t0 = performance.now();
        const fm = parseFrontMatter(text);
        assert.ok(performance.now() - t0 < 10_000, `${(performance.now() - t0).toFixed(0)} ms`);
        assert.deepEqual(fm.data, { name: 'a', description: 'd' });
        assert.equal(fm.body, 'body');
        const empty = parseFrontMatter(`---\n${blank.repeat(200_000)}---\n`);
        assert.deepEqual([empty.data, empty.error], [{}, undefined]);
      });
    }

    it('YAML errors point at their own line (gray-matter kept a newline that shifted them by one)', () => {
      for (const [text, line] of [
        ['---\nname: a\n  bad: indent\n---\n', 2],
        ['---\nname: a\nname: b\n---\n', 2],
        ['---\nname: a\ndescription: b\nx: @\n---\n', 3],
      ] as const) {
        assert.equal(parseFrontMatter(text).error?.range.start.line, line, text);
      }
    });

    it('the block ends where its ranges say: at `...` as at `---`', () => {
      const fm = parseFrontMatter('---\nname: a\ndescription: d\n...\nbody\n---\nmore');
      assert.deepEqual(fm.data, { name: 'a', description: 'd' });
      assert.equal(fm.body, 'body\n---\nmore');
    });

    it('languages: YAML and JSON parse; JavaScript, CoffeeScript and the rest are refused by name', () => {
      assert.deepEqual(parseFrontMatter('---yml\nname: a\n---\n').data, { name: 'a' });
      assert.deepEqual(parseFrontMatter('---json\n{"name": "a"}\n---\n').data, { name: 'a' });
      for (const [opener, label] of [['---JS', 'JavaScript'], ['---Javascript', 'JavaScript'], ['---cson', 'CoffeeScript'], ['---toml', '"toml"'], ['---constructor', '"constructor"']]) {
        const fm = parseFrontMatter(`${opener}\nname = (globalThis.__skillRouterPwned = 1)\n---\n`);
        assert.equal(fm.error?.message, `front matter in ${label} is not supported; use YAML`);
        assert.deepEqual(fm.data, {});
      }
      assert.equal((globalThis as { __skillRouterPwned?: number }).__skillRouterPwned, undefined);
    });

    it('deep nesting is named as such, not as a stack overflow', () => {
      assert.equal(parseFrontMatter(`---\nname: ${'['.repeat(20_000)}\n---\n`).error?.message, 'front matter is not valid YAML: it is nested too deeply');
    });
  });

  describe('text analysis is linear in the input (was quadratic: minutes to hours for 1 MB)', function () {
    // Generator: huge(). Before the fix the first case alone ran for over 40 s at 40,000 characters.
    this.timeout(30_000);
    const n = 200_000;
    const cases: [string, string][] = [
      ['a run of capitals then a lower-case letter (stemmer)', `${'A'.repeat(n)}a`],
      ['dots inside one word (suffix trim)', `a${'.'.repeat(n)}b`],
      ['dashes inside one word', `a${'-'.repeat(n)}b`],
      ['unclosed [', '['.repeat(n)],
      ['unclosed ![', '!['.repeat(n / 2)],
      ['links without a closing parenthesis', '[a]('.repeat(n / 4)],
      ['tags without >', '<a'.repeat(n / 2)],
      ['comments without -->', '<!--'.repeat(n / 4)],
      ['blank lines', '\n'.repeat(n)],
      ['blank CR lines', '\r'.repeat(n)],
      ['spaces and newlines', ' \n'.repeat(n / 2)],
    ];
    for (const [what, text] of cases) {
      it(what, () => {
        const t0 = performance.now();
        cleanMarkdown(text);
        analyse(text);
        splitPassages(text);
        // Generous: the fixed code takes milliseconds, the old one minutes.
        assert.ok(performance.now() - t0 < 10_000, `${(performance.now() - t0).toFixed(0)} ms`);
      });
    }

    it('a 1 MB SKILL.md of such text indexes and routes', async () => {
      const body = `${'['.repeat(300_000)}\n${'A'.repeat(300_000)}a\n${'<!--'.repeat(50_000)}`;
      const svc = createSkillService({
        root: 'm',
        workspace: new MemoryWorkspace(new Map([['big/SKILL.md', `---\nname: big\ndescription: Big file.\n---\n${body}`], ['pdf/SKILL.md', '---\nname: pdf\ndescription: Extract PDF tables.\n---\n']])),
        embedder: new FakeEmbedder(),
      });
      const t0 = performance.now();
      await svc.index();
      const r = await svc.route('extract pdf tables');
      assert.equal(r.candidates[0].skillId, 'pdf');
      assert.ok(performance.now() - t0 < 20_000);
    });
  });

  describe('cleanMarkdown keeps its regular-expression definition', () => {
    for (const text of [
      '[x](y(z))', '<Suspense fallback={<Spinner />}>', 'IEnumerable<Tuple<int>> - x', '![a](b) [c](d) <e> <!-- f --> g',
      '[a]]([b](c)', '<!-- a <!-- b --> c -->', '- a\n\n  + b\n\u2028- c', '[a\n](b\n)', '<a', '[', '](', '<!--x', '\r- x\r+ y',
    ]) {
      it(JSON.stringify(text), () => assert.equal(cleanMarkdown(text), cleanMarkdownByRegex(text)));
    }
  });

  it('parseConfig: a YAML error without a position (seed 1, path "52:0:0:0:0:0")', () => {
    // Several documents in one file: js-yaml's error has no mark, and `err.mark.line` threw.
    for (const parse of [parseConfig, parseRoutingTests]) {
      assert.throws(() => parse('---\n---\n', 'skill-router.yaml'), (err: Error) => err instanceof UsageError && /^skill-router\.yaml: expected a single document/.test(err.message));
    }
  });

  describe('JsonlWorkspace', () => {
    let dir: string;
    beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'sr-jsonl-'))));
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('a `null` line is a problem, not a TypeError; a BOM and a duplicate id are handled', async () => {
      const file = path.join(dir, 'skills.jsonl');
      const line = (id: string) => JSON.stringify({ id, text: `${id} | Does ${id} | body` });
      writeFileSync(file, `\ufeff${line('first')}\nnull\n[]\n"x"\n${line('dup')}\n${line('dup')}\n`);
      const { files, problems } = await new JsonlWorkspace(file).list();
      assert.deepEqual(files.map((f) => f.id), ['first', 'dup'], 'the BOM does not cost the first skill');
      assert.deepEqual(problems.map((p) => [p.path.slice(file.length), p.message.split(':')[0]]), [
        [':2', 'each line must be a JSON object with "id" and "text"'],
        [':3', 'each line must be a JSON object with "id" and "text"'],
        [':4', 'each line must be a JSON object with "id" and "text"'],
        [':6', 'duplicate id "dup"'],
      ]);
    });

    it('a missing file is a clear error', async () => {
      await assert.rejects(new JsonlWorkspace(path.join(dir, 'nope.jsonl')).list(), /^Error: cannot read library file .*nope\.jsonl: ENOENT$/);
    });
  });

  describe('FsWorkspace links', () => {
    let root: string;
    const skill = (name: string) => `---\nname: ${name}\ndescription: Does ${name}.\n---\n`;
    beforeEach(() => (root = mkdtempSync(path.join(tmpdir(), 'sr-links-'))));
    afterEach(() => rmSync(root, { recursive: true, force: true }));

    it('a link to a sibling folder does not take its name, and is not a loop (generator: tree, @sibling)', async () => {
      // `a -> b` was walked first (sorted), so skill b was listed as `a` (a name-mismatch error)
      // and the real folder b was reported as a link loop.
      mkdirSync(path.join(root, 'b'));
      writeFileSync(path.join(root, 'b', 'SKILL.md'), skill('b'));
      symlinkSync('b', path.join(root, 'a'));
      mkdirSync(path.join(root, 'skills', 'foo'), { recursive: true });
      writeFileSync(path.join(root, 'skills', 'foo', 'SKILL.md'), skill('foo'));
      mkdirSync(path.join(root, '.claude', 'skills'), { recursive: true });
      symlinkSync('../../skills/foo', path.join(root, '.claude', 'skills', 'foo'));
      const { files, problems } = await new FsWorkspace(root).list();
      assert.deepEqual(files.map((f) => f.id), ['b', 'skills/foo']);
      assert.deepEqual(problems, []);
    });

    it('a link to / or to an ancestor is a loop and is not followed (seed 1, path "24:2:1:4")', async () => {
      // It was followed: the walk went through the whole file system (158 s).
      writeFileSync(path.join(root, 'SKILL.md'), skill(path.basename(root)));
      symlinkSync('/', path.join(root, '.hidden'));
      mkdirSync(path.join(root, 'a'));
      symlinkSync('..', path.join(root, 'a', 'up'));
      symlinkSync(path.join(root, 'a', 'self'), path.join(root, 'a', 'self'));
      const t0 = performance.now();
      const { files, problems } = await new FsWorkspace(root).list();
      assert.ok(performance.now() - t0 < 5_000);
      assert.deepEqual(files.map((f) => f.id), ['.']);
      assert.deepEqual(problems, [
        { path: '.hidden', message: 'symbolic link loop: it points to a folder that contains it; not followed' },
        { path: 'a/self', message: 'symbolic link loop: the link leads back to itself' },
        { path: 'a/up', message: 'symbolic link loop: it points to a folder that contains it; not followed' },
      ]);
    });
  });

  it('HnswIndex: a removed key can be upserted again (bench seed 4, path "10815:4:3:9:11:11:16:18:19:…")', () => {
    // hnswlib refused the update: "Can't use addPoint to update deleted elements if replacement of
    // deleted elements is enabled".
    const index = new HnswIndex(8, { exactBelow: 1 });
    const zeros = new Float32Array(8);
    const ones = new Float32Array(8).fill(1);
    index.upsert(2, zeros);
    index.search(ones, 1); // builds the graph
    index.remove(2);
    assert.deepEqual(index.search(ones, 5), []);
    index.upsert(2, ones);
    assert.ok(index.approximate);
    assert.deepEqual(index.search(ones, 5).map((h) => h.key), [2]);
  });

  describe('vectors.bin headers the cache used to accept', () => {
    let dir: string;
    beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'sr-vc-'))));
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    const write = (header: string, floats: number[]) => {
      const h = Buffer.from(header);
      const len = Buffer.alloc(4);
      len.writeUInt32LE(h.length);
      writeFileSync(path.join(dir, VECTOR_FILE), Buffer.concat([Buffer.from('SRVC1\n'), len, h, Buffer.from(Float32Array.from(floats).buffer)]));
    };

    for (const [what, header, floats, reason] of [
      ['a fractional row count', '{"model":"m@1","dims":2,"entries":[["k",0.5]]}', [1], 'bad header'],
      ['a negative row count', '{"model":"m@1","dims":2,"entries":[["a",-1],["b",2]]}', [1, 0], 'bad header'],
      ['NaN in the data', '{"model":"m@1","dims":2,"entries":[["k",1]]}', [NaN, 0], 'non-finite values'],
      ['Infinity in the data', '{"model":"m@1","dims":2,"entries":[["k",1]]}', [Infinity, 0], 'non-finite values'],
      ['a damaged header (generator: vector cache, "header" "\\r\\n\\ud800")', '\r\n\ud800', [], 'header is not JSON'],
    ] as const) {
      it(`${what} is discarded with a warning that names the file`, async () => {
        write(header, [...floats]);
        const warnings: string[] = [];
        const c = await FileVectorCache.open(dir, 'm@1', 2, { debug() {}, info() {}, warn: (m) => warnings.push(m), error() {} });
        assert.equal(c.size, 0);
        assert.deepEqual(warnings, [`vector cache ${path.join(dir, VECTOR_FILE)} is corrupt (${reason}); rebuilding it`]);
        c.set('k', [Float32Array.of(0, 1)]);
        await c.flush(new Set(['k']));
        assert.notEqual(readFileSync(path.join(dir, VECTOR_FILE)).length, 0);
      });
    }
  });
});
