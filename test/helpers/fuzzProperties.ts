/**
 * The fuzz properties, shared by test/unit/fuzz*.test.ts (`npm test`, a few thousand inputs per
 * property, fixed seed) and bench/fuzz.ts (`npm run fuzz`, 100,000 per property, random seed).
 * Each says: whatever the input, nothing throws past the engine, and every problem comes back as a
 * well-formed finding, a listed failure, or a CLI message with exit code 2.
 */
import { strict as assert } from 'node:assert';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { parseFrontMatter, type FrontMatterResult } from '../../src/core/parse/frontMatter';
import { decodeSkillBytes, MAX_SKILL_BYTES, parseSkill, SkillReadError } from '../../src/core/parse/skillDoc';
import { validateFrontMatter } from '../../src/core/parse/validate';
import { PROFILES, type ProfileId } from '../../src/core/profiles';
import { createSkillService } from '../../src/core/route/skillService';
import type { SkillDoc } from '../../src/core/types';
import { cleanMarkdown } from '../../src/core/text/passages';
import type { Finding, TextRange } from '../../src/core/types';
import { FsWorkspace } from '../../src/node/fsWorkspace';
import { HnswIndex } from '../../src/node/hnswIndex';
import { jiebaSegmenter } from '../../src/node/jiebaSegmenter';
import { JsonlWorkspace } from '../../src/node/jsonlWorkspace';
import { openLibrary } from '../../src/node/library';
import { ModelLoadError, readManifest } from '../../src/node/modelFolder';
import { FileVectorCache, VECTOR_FILE } from '../../src/node/vectorCache';
import { parseConfig } from '../../src/cli/check/config';
import { parseRoutingTests, parseTriggerEvals } from '../../src/cli/check/routingTests';
import { UsageError } from '../../src/cli/io';
import { main } from '../../src/cli/main';
import { FakeEmbedder, MemoryWorkspace } from './fakes';
import {
  fileName,
  markdown,
  oddText,
  query,
  skillBytes,
  skillName,
  skillText,
  smallSkillText,
  TRICKY_KEYS,
  tree,
  words,
  yamlKey,
  type TreeEntry,
} from './fuzzInputs';

// Properties over different input tuples share one list; the hooks let the bench time each input.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyProperty = fc.IPropertyWithHooks<any> | fc.IAsyncPropertyWithHooks<any>;

/** One fuzz property: `runs` inputs in `npm test`; the bench scales it. */
export interface FuzzProperty {
  name: string;
  /** Inputs per run of `npm test`. */
  runs: number;
  /** Inputs in `npm run fuzz`. */
  benchRuns: number;
  property: AnyProperty;
}

const SEVERITIES = new Set(['error', 'warning', 'info']);
const CODE = /^[a-z]+(\.[a-z0-9]+(-[a-z0-9]+)*)+$/;
const PWNED = '__skillRouterFuzzPwned';
const JS_OPENER = /^\uFEFF?---(js|javascript|coffee|coffeescript|cson)\s*(\r?\n|$)/i;

/** Lines as the parser counts them: split on \n, the BOM dropped. */
function lineLengths(text: string): number[] {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return source.split('\n').map((l) => (l.endsWith('\r') ? l.length - 1 : l.length));
}

function checkRange(r: TextRange, lines: number[] | undefined, what: string): void {
  assert.ok(r !== null && typeof r === 'object' && Object.getPrototypeOf(r) === Object.prototype, `${what}: range is not a plain object (${typeof r})`);
  for (const end of ['start', 'end'] as const) {
    const p = r[end];
    assert.ok(p && Number.isInteger(p.line) && p.line >= 0 && Number.isInteger(p.character) && p.character >= 0, `${what}: bad ${end} ${JSON.stringify(p)}`);
    if (lines) {
      assert.ok(p.line < lines.length, `${what}: ${end} line ${p.line} past the last line ${lines.length - 1}`);
      assert.ok(p.character <= lines[p.line], `${what}: ${end} character ${p.character} past the line end ${lines[p.line]}`);
    }
  }
  assert.ok(r.start.line < r.end.line || (r.start.line === r.end.line && r.start.character <= r.end.character), `${what}: start after end`);
}

/** A finding that an editor and every CLI formatter can show. */
export function checkFindings(findings: Finding[], lines?: number[]): void {
  for (const f of findings) {
    assert.match(f.code, CODE, `finding code ${JSON.stringify(f.code)}`);
    assert.ok(SEVERITIES.has(f.severity), `severity ${f.severity}`);
    assert.ok(typeof f.message === 'string' && f.message.trim().length > 0, `${f.code}: empty message`);
    if (f.profile !== undefined) assert.ok((PROFILES as readonly string[]).includes(f.profile), `profile ${f.profile}`);
    checkRange(f.range, lines, f.code);
  }
  // Findings travel as JSON (LSP, --json, SARIF): they must survive it unchanged.
  assert.deepEqual(JSON.parse(JSON.stringify(findings)), findings);
}

/** What must hold of any parsed skill, whatever its text. */
export function checkSkill(doc: SkillDoc, text: string): void {
  const lines = lineLengths(text);
  for (const field of ['id', 'path', 'name', 'description', 'body', 'hash'] as const) {
    assert.equal(typeof doc[field], 'string', `${field} is a string`);
  }
  assert.ok(doc.lang === 'en' || doc.lang === 'zh');
  assert.ok(Number.isInteger(doc.bodyStartLine) && doc.bodyStartLine >= 0 && doc.bodyStartLine <= lines.length, `bodyStartLine ${doc.bodyStartLine}`);
  for (const key of Object.keys(doc.keyRanges)) checkRange(doc.keyRanges[key], lines, `key ${key}`);
  checkFindings(doc.findings, lines);
  const fm = parseFrontMatter(text);
  const codes = new Set(doc.findings.map((f) => f.code));
  if (fm.error) assert.ok(codes.has('frontmatter.invalid-yaml'), 'a parse error is a finding');
  else if (!fm.hasFrontMatter) assert.ok(codes.has('frontmatter.missing'), 'missing front matter is a finding');
  if (JS_OPENER.test(text)) {
    assert.deepEqual(fm.data, {}, 'JavaScript front matter gives no data');
    // gray-matter skips the engine for an empty block; anything else is refused.
    if (fm.error) assert.match(fm.error.message, /not supported; use YAML|not closed/);
    else assert.ok(codes.has('frontmatter.name-missing'));
  }
  assert.equal((globalThis as Record<string, unknown>)[PWNED], undefined, 'front matter ran code');
}

const profileSets = fc.subarray([...PROFILES] as ProfileId[], { minLength: 1 });
const folderName = fc.option(fc.oneof(skillName, fileName), { nil: undefined });

/** Any text → parseSkill: a skill with well-formed findings. */
function frontMatterProperty(): AnyProperty {
  return fc.property(skillText, folderName, profileSets, (text, folder, profiles) => {
    const doc = parseSkill({ id: folder ?? 'x', path: `${folder ?? 'x'}/SKILL.md`, folderName: folder }, text, profiles);
    checkSkill(doc, text);
  });
}

/** Any bytes → a skill, or a SkillReadError that says why. */
function bytesProperty(): AnyProperty {
  return fc.property(skillBytes(MAX_SKILL_BYTES), profileSets, (bytes, profiles) => {
    let decoded: { text: string; invalidUtf8: boolean };
    try {
      decoded = decodeSkillBytes(bytes);
    } catch (err) {
      assert.ok(err instanceof SkillReadError, `unexpected ${(err as Error).name}: ${(err as Error).message}`);
      assert.match(err.message, /SKILL\.md (is|looks)/);
      assert.ok(bytes.length > MAX_SKILL_BYTES || bytes.subarray(0, 8192).includes(0));
      return;
    }
    const doc = parseSkill({ id: 'b', path: 'b/SKILL.md', folderName: 'b' }, decoded.text, profiles, decoded);
    checkSkill(doc, decoded.text);
    assert.equal(doc.findings.some((f) => f.code === 'file.encoding'), decoded.invalidUtf8);
  });
}

/** Any parsed data (including values YAML never makes) → well-formed findings. */
function validateProperty(): AnyProperty {
  const key = fc.oneof(yamlKey, fc.constantFrom(...TRICKY_KEYS));
  const data = fc.dictionary(
    key,
    fc.anything({ key, maxDepth: 3, withNullPrototype: true, withDate: true, withTypedArray: true, withSparseArray: true, withBoxedValues: true, withMap: true, withSet: true }),
    { maxKeys: 8 },
  );
  const text = fc.constantFrom('---\nname: x\n---\n', '---\n---\n', '');
  return fc.property(data, fc.array(key, { maxLength: 4 }), text, folderName, profileSets, (d, rangedKeys, source, folder, profiles) => {
    const fm: FrontMatterResult = {
      ...parseFrontMatter(source),
      data: d,
      keyRanges: Object.fromEntries(rangedKeys.map((k) => [k, { start: { line: 0, character: 0 }, end: { line: 0, character: 3 } }])),
    };
    checkFindings(validateFrontMatter(fm, folder, profiles));
  });
}

/** The regular-expression definition cleanMarkdown must keep matching (it is linear now). */
export function cleanMarkdownByRegex(text: string): string {
  return text
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<\/?[A-Za-z][^>]*>/g, ' ')
    .replace(/[*_`~>|#]+/g, ' ')
    .replace(/^\s*[-+]\s+/gm, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function cleanMarkdownProperty(): AnyProperty {
  const piece = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom('[', ']', '(', ')', '![', '<', '>', '</', '<!--', '-->', '- ', '+ ', '\n', ' ', '\r', '\u2028', '\t', '#', '*', 'a', 'B', 'é', '数') },
    { weight: 1, arbitrary: oddText(6) },
  );
  const text = fc.oneof(fc.array(piece, { maxLength: 40 }).map((p) => p.join('')), markdown);
  return fc.property(text, (t) => {
    assert.equal(cleanMarkdown(t), cleanMarkdownByRegex(t));
  });
}

let segmenter: ((text: string) => string[]) | undefined;
function realSegmenter(): (text: string) => string[] {
  segmenter ??= jiebaSegmenter();
  return segmenter;
}

/**
 * Any library and request, exact or HNSW vector search (native, with live removals and inserts)
 * → index, route and update without throwing; ranks in order, scores finite, no skill twice.
 */
function routingProperty(): AnyProperty {
  // Mostly small skills: a huge one in every library would make each input cost seconds.
  const content = fc.oneof({ weight: 20, arbitrary: smallSkillText }, { weight: 2, arbitrary: skillText }, { weight: 3, arbitrary: skillBytes(MAX_SKILL_BYTES, false) });
  const library = fc.array(fc.tuple(fc.oneof(skillName, fileName), content), { minLength: 1, maxLength: 6 });
  return fc.asyncProperty(
    library,
    fc.array(query, { minLength: 1, maxLength: 3 }),
    fc.boolean(),
    fc.integer({ min: 1, max: 25 }),
    fc.oneof({ weight: 20, arbitrary: skillBytes(MAX_SKILL_BYTES, false) }, { weight: 1, arbitrary: skillBytes(MAX_SKILL_BYTES) }),
    fc.boolean(),
    async (skills, queries, dense, k, update, hnsw) => {
      const files = new Map<string, string | Uint8Array>();
      skills.forEach(([name, content], i) => files.set(`${i}-${name}/SKILL.md`, content));
      const svc = createSkillService({
        root: 'fuzz',
        workspace: new MemoryWorkspace(files),
        embedder: dense ? new FakeEmbedder() : null,
        indexFactory: hnsw ? (dims) => new HnswIndex(dims, { exactBelow: 2 }) : undefined,
        segmenter: realSegmenter(),
        profiles: PROFILES,
      });
      const stats = await svc.index();
      assert.equal(stats.skills + stats.failed, files.size, 'every file is a skill or a failure');
      for (const f of svc.failures()) assert.ok(f.message.length > 0);
      for (const doc of svc.skills()) checkFindings(doc.findings);
      const checkRoute = async (q: string) => {
        const r = await svc.route(q, { k });
        assert.ok(r.candidates.length <= Math.min(k, svc.skills().length));
        r.candidates.forEach((c, i) => {
          assert.equal(c.rank, i + 1);
          for (const [stage, s] of Object.entries(c.scores)) {
            if (s !== null) assert.ok(Number.isFinite(s), `${stage} score ${s}`);
          }
          assert.ok(c.scores.lexical >= 0 && c.scores.lexical <= 1, `lexical ${c.scores.lexical}`);
          if (!dense) assert.equal(c.scores.dense, null);
        });
        assert.equal(new Set(r.candidates.map((c) => c.skillId)).size, r.candidates.length, 'no skill twice');
      };
      for (const q of queries) await checkRoute(q);
      await svc.pairFindings();
      const ref = (await new MemoryWorkspace(files).list()).files[0];
      try {
        await svc.updateFile(ref, update);
      } catch (err) {
        assert.ok(err instanceof SkillReadError, `updateFile threw ${(err as Error).name}: ${(err as Error).message}`);
      }
      await checkRoute(queries[0]);
      await svc.dispose();
      // hnswlib frees a graph (2.6 MB each) from a finalizer that waits for the event loop; a
      // loop of in-memory runs never yields to it, and 14,000 runs took 8 GB.
      await new Promise((resolve) => setImmediate(resolve));
    },
  );
}

/** Any sequence of upserts (keys reused), removals and searches on the HNSW index → what exact search would allow. */
function hnswProperty(): AnyProperty {
  const dims = 8;
  const vector = fc.oneof(
    fc.constant(new Float32Array(dims)),
    fc.constant(new Float32Array(dims).fill(1)),
    fc.array(fc.integer({ min: -3, max: 3 }), { minLength: dims, maxLength: dims }).map((v) => Float32Array.from(v)),
  );
  const op = fc.oneof(
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('upsert' as const), key: fc.nat(24), vector }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('remove' as const), key: fc.nat(24) }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('search' as const), vector, k: fc.integer({ min: 1, max: 30 }) }) },
  );
  return fc.asyncProperty(fc.array(op, { maxLength: 40 }), fc.integer({ min: 1, max: 6 }), async (ops, exactBelow) => {
    const index = new HnswIndex(dims, { exactBelow });
    const live = new Set<number>();
    for (const o of ops) {
      if (o.kind === 'upsert') {
        index.upsert(o.key, o.vector);
        live.add(o.key);
      } else if (o.kind === 'remove') {
        index.remove(o.key);
        live.delete(o.key);
      } else {
        const hits = index.search(o.vector, o.k);
        assert.ok(hits.length <= Math.min(o.k, live.size), `${hits.length} hits for k ${o.k} and ${live.size} vectors`);
        assert.equal(new Set(hits.map((h) => h.key)).size, hits.length, 'no key twice');
        for (const h of hits) {
          assert.ok(live.has(h.key), `removed or unknown key ${h.key}`);
          assert.ok(Number.isFinite(h.score), `score ${h.score}`);
        }
      }
      assert.equal(index.size, live.size);
    }
    await new Promise((resolve) => setImmediate(resolve));
  });
}

let caseNo = 0;
function caseDir(tmp: string): string {
  const dir = path.join(tmp, `case-${process.pid}-${caseNo++}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Any .jsonl text → every non-blank line is a skill or a problem with its line number. */
function jsonlProperty(tmp: string): AnyProperty {
  const line = fc.oneof(
    { weight: 4, arbitrary: fc.record({ id: fc.oneof(skillName, fc.constantFrom('__proto__', 'constructor', 'a', 'a')), text: fc.tuple(words(3), words(10), markdown).map((p) => p.join(' | ')) }).map((o) => JSON.stringify(o)) },
    { weight: 1, arbitrary: fc.record({ id: skillName, name: oddText(10), description: oddText(30), body: oddText(30) }).map((o) => JSON.stringify(o)) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'null') },
    { weight: 1, arbitrary: fc.constantFrom('', ' ', 'null', '[]', '{}', '"x"', '{"id": 1}', '{"id": ""}', '{', '\ufeff{"id":"bom","text":"a | b"}') },
    { weight: 1, arbitrary: oddText(40) },
  );
  const file = fc.tuple(fc.array(line, { maxLength: 12 }), fc.constantFrom('\n', '\r\n'), fc.boolean()).map(([lines, eol, bom]) => (bom ? '\ufeff' : '') + lines.join(eol));
  return fc.asyncProperty(file, async (text) => {
    const dir = caseDir(tmp);
    try {
      const f = path.join(dir, 'skills.jsonl');
      writeFileSync(f, text);
      const ws = new JsonlWorkspace(f);
      const { files, problems } = await ws.list();
      const nonBlank = text.replace(/^\uFEFF/, '').split('\n').filter((l) => l.trim()).length;
      assert.equal(files.length + problems.length, nonBlank, 'each line is a skill or a problem');
      assert.equal(new Set(files.map((r) => r.id)).size, files.length, 'ids are unique');
      for (const p of problems) assert.match(p.path, /:\d+$/);
      const svc = createSkillService({ root: f, workspace: ws, profiles: PROFILES });
      const stats = await svc.index();
      assert.equal(stats.skills + stats.failed, files.length + problems.length);
      for (const doc of svc.skills()) checkFindings(doc.findings);
      await svc.route('extract tables');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

const SKIPPED = new Set(['.git', 'node_modules', '.hg', '.svn', '.skill-router-cache']);

/** Writes a generated tree; returns the SKILL.md files discovery must find under their own path. */
function materialize(root: string, entries: TreeEntry[]): Map<string, string> {
  const expected = new Map<string, string>();
  const kinds = new Map<string, 'dir' | 'file'>();
  const mkdir = (parts: string[]): boolean => {
    for (let i = 1; i <= parts.length; i++) if (kinds.get(parts.slice(0, i).join('/')) === 'file') return false;
    for (let i = 1; i <= parts.length; i++) kinds.set(parts.slice(0, i).join('/'), 'dir');
    mkdirSync(path.join(root, ...parts), { recursive: true });
    return true;
  };
  // Names as the file system stores them: a lone surrogate is written as U+FFFD.
  const disk = (name: string) => Buffer.from(name).toString();
  for (const raw of entries) {
    const e = { ...raw, dir: raw.dir.map(disk), ...('name' in raw ? { name: disk(raw.name) } : {}) } as TreeEntry;
    if (!mkdir(e.dir) || e.kind === 'dir') continue;
    const base = e.dir.join('/');
    const name = e.kind === 'skill' ? 'SKILL.md' : e.name;
    const rel = base ? `${base}/${name}` : name;
    if (kinds.has(rel)) continue;
    kinds.set(rel, 'file');
    const abs = path.join(root, ...e.dir, name);
    if (e.kind === 'link') {
      const firstDir = [...kinds].find(([, k]) => k === 'dir')?.[0];
      const target = { '@self': abs, '@root': root, '@sibling': path.join(root, firstDir ?? 'nowhere') }[e.target] ?? e.target;
      symlinkSync(target, abs);
    } else if (e.kind === 'skill') {
      writeFileSync(abs, e.text);
      if (!e.dir.some((d) => SKIPPED.has(d))) expected.set(base || '.', rel);
    } else {
      writeFileSync(abs, 'x');
    }
  }
  return expected;
}

/** Any tree of folders, files and links → every real SKILL.md found under its own path; problems listed. */
function discoveryProperty(tmp: string): AnyProperty {
  return fc.asyncProperty(tree, async (entries) => {
    const dir = caseDir(tmp);
    try {
      const root = path.join(dir, 'lib');
      mkdirSync(root);
      const expected = materialize(root, entries);
      const ws = new FsWorkspace(root);
      const { files, problems } = await ws.list();
      const ids = files.map((f) => f.id);
      assert.equal(new Set(ids).size, ids.length, 'ids are unique');
      assert.deepEqual([...ids].sort(), ids, 'sorted by id');
      for (const f of files) {
        assert.ok(f.path === 'SKILL.md' || f.path.endsWith('/SKILL.md'), f.path);
        assert.equal(f.id, f.path === 'SKILL.md' ? '.' : f.path.slice(0, -'/SKILL.md'.length));
        assert.ok(!f.path.split('/').some((p) => SKIPPED.has(p)), `skipped folder listed: ${f.path}`);
      }
      for (const [id, rel] of expected) {
        assert.ok(files.some((f) => f.id === id && f.path === rel), `${rel} not listed under its own path (got ${JSON.stringify(ids)}; problems ${JSON.stringify(problems)})`);
      }
      for (const p of problems) assert.ok(p.message.length > 0 && typeof p.path === 'string');
      const svc = await openLibrary({ root, noModel: true, cacheDir: path.join(dir, 'cache'), profiles: PROFILES });
      const stats = await svc.index();
      assert.equal(stats.skills + stats.failed, files.length + problems.length);
      for (const doc of svc.skills()) checkFindings(doc.findings);
      await svc.dispose();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

/** Any damage to vectors.bin → the cache opens, and what it returns is usable or absent. */
function vectorCacheProperty(tmp: string): AnyProperty {
  const dims = 4;
  const damage = fc.oneof(
    fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
    fc.record({ kind: fc.constant('flip' as const), at: fc.array(fc.nat(), { minLength: 1, maxLength: 8 }), mask: fc.integer({ min: 1, max: 255 }) }),
    fc.record({ kind: fc.constant('splice' as const), at: fc.nat(), bytes: fc.uint8Array({ maxLength: 32 }) }),
    fc.record({ kind: fc.constant('header' as const), json: fc.oneof(fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? ''), oddText(20), fc.constantFrom('{"model":"m@1","dims":4,"entries":[["k",0.5]]}', '{"model":"m@1","dims":4,"entries":[["k",-1]]}', '{"model":"m@1","dims":4,"entries":"x"}', '{"model":"m@1","dims":4,"entries":[[1,1]]}', 'null', '{"model":"m@1","dims":4,"entries":[["k",1e300]]}')), data: fc.uint8Array({ maxLength: 48 }) }),
    fc.record({ kind: fc.constant('nan' as const), row: fc.nat(), value: fc.constantFrom(NaN, Infinity, -Infinity) }),
  );
  return fc.asyncProperty(damage, async (d) => {
    const dir = caseDir(tmp);
    try {
      const c = await FileVectorCache.open(dir, 'm@1', dims);
      c.set('a', [Float32Array.of(1, 0, 0, 0), Float32Array.of(0, 1, 0, 0)]);
      c.set('b', [Float32Array.of(0, 0, 1, 0)]);
      await c.flush(new Set(['a', 'b']));
      const file = path.join(dir, VECTOR_FILE);
      let buf = Buffer.from(readFileSync(file));
      if (d.kind === 'truncate') buf = buf.subarray(0, d.at % buf.length);
      else if (d.kind === 'flip') for (const at of d.at) buf[at % buf.length] ^= d.mask;
      else if (d.kind === 'splice') {
        const at = d.at % (buf.length + 1);
        buf = Buffer.concat([buf.subarray(0, at), Buffer.from(d.bytes), buf.subarray(at)]);
      } else if (d.kind === 'header') {
        const header = Buffer.from(d.json);
        const len = Buffer.alloc(4);
        len.writeUInt32LE(header.length);
        buf = Buffer.concat([Buffer.from('SRVC1\n'), len, header, Buffer.from(d.data)]);
      } else {
        const hlen = buf.readUInt32LE(6);
        const rows = (buf.length - 10 - hlen) / 4 / dims;
        buf.writeFloatLE(d.value, 10 + hlen + (d.row % (rows * dims)) * 4);
      }
      writeFileSync(file, buf);
      const warnings: string[] = [];
      const logger = { debug() {}, info() {}, warn: (m: string) => warnings.push(m), error() {} };
      const reopened = await FileVectorCache.open(dir, 'm@1', dims, logger);
      for (const key of ['a', 'b', 'k']) {
        const v = reopened.get(key);
        if (v === undefined) continue;
        for (const row of v) {
          assert.equal(row.length, dims, `${key}: a row of ${row.length} values`);
          for (const x of row) assert.ok(Number.isFinite(x), `${key}: non-finite value ${x}`);
        }
      }
      if (d.kind === 'nan') assert.equal(reopened.size, 0, 'NaN data is discarded');
      for (const w of warnings) assert.match(w, /^vector cache .* (is corrupt \((bad magic|truncated header|header is not JSON|bad header|data length does not match header|non-finite values)\)|unreadable); rebuilding it$/);
      // It must be writable again.
      reopened.set('c', [Float32Array.of(0, 0, 0, 1)]);
      await reopened.flush(new Set(['c']));
      assert.deepEqual([...(await FileVectorCache.open(dir, 'm@1', dims)).get('c')![0]], [0, 0, 0, 1]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

/** Any config, tests or evals text → parsed, or a UsageError / listed problem naming the file. */
function checkFilesProperty(): AnyProperty {
  const yamlText = fc.oneof(
    skillText,
    fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v) ?? ''),
    fc.array(fc.record({ query: fc.oneof(words(6), fc.constant(''), fc.integer()), expect: fc.oneof(skillName, fc.array(skillName), fc.constant(null)), top: fc.oneof(fc.integer(), fc.constant('x')), set: fc.anything({ maxDepth: 1 }) }, { requiredKeys: [] }), { maxLength: 4 }).map((v) => JSON.stringify(v)),
    fc.constantFrom('library: x\nbudgets: {claude-code: 0}', 'profiles: [nope]', 'top: -1', 'model: 3', '- query: q\n  expect: a\n  bogus: 1', 'tests: 3'),
  );
  return fc.property(yamlText, fc.constantFrom('skill-router.yaml', 'skill-router.tests.yaml', 'x.json'), (text, file) => {
    for (const parse of [parseConfig, parseRoutingTests]) {
      try {
        parse(text, file);
      } catch (err) {
        assert.ok(err instanceof UsageError, `${parse.name} threw ${(err as Error).name}: ${(err as Error).message}`);
        assert.ok(err.message.includes(file), `${parse.name}: the message names the file: ${err.message}`);
      }
    }
    const evals = parseTriggerEvals(text, 'evals.json', 'skill');
    for (const p of evals.problems) assert.ok(Number.isInteger(p.line) && p.line >= 1 && p.message.length > 0);
  });
}

/** Any manifest.json → a manifest, or a ModelLoadError naming the file and the fix. */
function manifestProperty(tmp: string): AnyProperty {
  const field = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom('model.onnx', 'tokenizer.json', 'mean', 'bi-encoder', 'cross-encoder', 128, -1, 0.5, null));
  const manifest = fc.oneof(
    fc.record(
      {
        id: field,
        kind: field,
        onnx: field,
        tokenizer: field,
        maxTokens: field,
        pooling: field,
        dims: field,
        inputs: fc.oneof(field, fc.dictionary(fc.constantFrom('ids', 'mask', 'typeIds', 'x'), field)),
        sha256: fc.oneof(field, fc.dictionary(fc.constantFrom('model.onnx', 'tokenizer.json'), fc.oneof(fc.constant('0'.repeat(64)), field))),
      },
      { requiredKeys: [] },
    ).map((m) => JSON.stringify(m)),
    fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? ''),
    oddText(40),
  );
  return fc.asyncProperty(manifest, async (text) => {
    const dir = caseDir(tmp);
    try {
      writeFileSync(path.join(dir, 'manifest.json'), text);
      writeFileSync(path.join(dir, 'model.onnx'), 'not onnx');
      writeFileSync(path.join(dir, 'tokenizer.json'), '{}');
      try {
        const m = await readManifest(dir, { builtIn: false });
        assert.equal(typeof m.id, 'string');
      } catch (err) {
        assert.ok(err instanceof ModelLoadError, `threw ${(err as Error).name}: ${(err as Error).message}`);
        assert.ok(err.file.startsWith(dir), `names a file in the folder: ${err.file}`);
        assert.ok(err.fix.length > 0);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

/** Messages that mean an exception escaped instead of becoming a clear error. */
const INTERNAL = /\b(TypeError|ReferenceError|RangeError|Cannot read propert|is not a function|is not iterable|undefined is not|Maximum call stack)\b|^\s+at .+:\d+:\d+\)?$/m;

/** A fixed small library with every file the CLI reads, good and bad. */
export function cliFixture(dir: string): void {
  const write = (rel: string, text: string) => {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  };
  write('lib/pdf-extract/SKILL.md', '---\nname: pdf-extract\ndescription: Extract text and tables from PDF files.\n---\n# PDF\nUse pdftotext.\n');
  write('lib/k8s-deploy/SKILL.md', '---\nname: k8s-deploy\ndescription: Deploy services to Kubernetes with Helm.\n---\nhelm upgrade\n');
  write('lib/broken/SKILL.md', '---js\n{ name: (globalThis.__skillRouterFuzzPwned = 1, "x") }\n---\n');
  write('lib/skill-router.tests.yaml', '- query: extract tables from a pdf\n  expect: pdf-extract\n');
  write('skills.jsonl', `${JSON.stringify({ id: 's1', text: 'pdf | Extract PDF text | body' })}\nnull\n{bad\n`);
  write('queries.jsonl', `${JSON.stringify({ query: 'extract pdf tables', relevant: ['pdf-extract'] })}\n`);
  write('bad-queries.jsonl', 'not json\n{"query": 3}\nnull\n');
  write('skill-router.yaml', 'library: lib\n');
  write('bad-config.yaml', 'library: [\n');
  write('odd-config.yaml', 'top: -1\nprofiles: [nope]\nbogus: 1\n');
}

/** Any command line → exit 0, 1 or 2; exit 2 with a one-line reason, never a stack or a TypeError. */
function cliProperty(tmp: string): AnyProperty {
  const base = path.join(tmp, 'cli');
  let written = false;
  const value = (...xs: string[]) => fc.constantFrom(...xs);
  const flag = fc.oneof(
    fc.tuple(fc.constant('--library'), value('lib', 'skills.jsonl', 'missing', 'lib/pdf-extract/SKILL.md', 'queries.jsonl', '', '.', 'lib/broken')),
    fc.tuple(fc.constantFrom('--top', '-k'), value('0', '-1', 'abc', '3', '1e3', '99999999999', '2.5', '')),
    fc.tuple(fc.constant('--profile'), value('spec', 'claude-code', 'x,codex', '', 'copilot,codex')),
    fc.tuple(fc.constant('--device'), value('cpu', 'tpu', '')),
    fc.tuple(fc.constant('--threads'), value('0', '2', 'x')),
    fc.tuple(fc.constant('--queries'), value('queries.jsonl', 'missing.jsonl', 'bad-queries.jsonl', 'lib')),
    fc.tuple(fc.constant('--config'), value('skill-router.yaml', 'bad-config.yaml', 'odd-config.yaml', 'missing.yaml')),
    fc.tuple(fc.constant('--format'), value('text', 'json', 'sarif', 'junit', 'xml')),
    fc.tuple(fc.constant('--model'), value('nope', 'lib')),
    fc.tuple(fc.constant('--reranker'), value('nope')),
    fc.tuple(fc.constant('--cache'), value('cache', 'lib/pdf-extract/SKILL.md')),
    fc.constantFrom('--json', '--no-rerank', '--quiet', '--verbose', '--no-model', '--strict', '--help', '-h', '--unknown', '--', '-x', '--top'),
    oddText(12),
    words(4),
  );
  const argv = fc
    .tuple(fc.constantFrom('route', 'index', 'validate', 'eval', 'check', 'route', 'validate', '--help', 'help', '--version', 'bogus', ''), fc.array(flag, { maxLength: 6 }))
    .map(([command, flags]) => [command, ...flags.flat()].filter((a, i) => i > 0 || a !== ''));
  const deps = {
    openLibrary: (o: Parameters<typeof openLibrary>[0]) => openLibrary({ ...o, noModel: true, modelDir: null }),
  };
  return fc.asyncProperty(argv, async (args) => {
    if (!written) cliFixture(base);
    written = true;
    let out = '';
    let err = '';
    const code = await main({ argv: args, cwd: base, stdout: (s) => (out += s), stderr: (s) => (err += s), env: {} }, deps);
    assert.ok(code === 0 || code === 1 || code === 2, `exit ${code}`);
    assert.doesNotMatch(err, INTERNAL, `stderr shows an internal error:\n${err}`);
    assert.doesNotMatch(out, INTERNAL, `stdout shows an internal error:\n${out}`);
    if (code === 2) assert.ok(err.trim().length > 0 || /Usage/.test(out), 'exit 2 says why');
    const options = args.includes('--') ? args.slice(0, args.indexOf('--')) : args;
    const wantsJson = options.includes('--json') && ['route', 'index', 'validate', 'eval'].includes(args[0]) && !options.includes('--help') && !options.includes('-h');
    if (wantsJson && code !== 2) JSON.parse(out);
    assert.equal((globalThis as Record<string, unknown>)[PWNED], undefined, 'front matter ran code');
  });
}

/** Every property; `tmp` is a scratch folder (made when first needed) that the caller removes. */
export function fuzzProperties(tmp: string): FuzzProperty[] {
  return [
    { name: 'front matter + validation: any SKILL.md text', runs: 3000, benchRuns: 100_000, property: frontMatterProperty() },
    { name: 'bytes: any SKILL.md bytes (binary, Latin-1, UTF-16, 1 MB edge)', runs: 1000, benchRuns: 100_000, property: bytesProperty() },
    { name: 'validation: any front-matter data, inherited key names', runs: 3000, benchRuns: 100_000, property: validateProperty() },
    { name: 'cleanMarkdown: same text as its regular-expression definition', runs: 5000, benchRuns: 100_000, property: cleanMarkdownProperty() },
    { name: 'routing: any library, request and live update', runs: 400, benchRuns: 100_000, property: routingProperty() },
    { name: 'vector index (HNSW): any upserts, removals and searches', runs: 1000, benchRuns: 100_000, property: hnswProperty() },
    { name: 'check files: any config, tests and evals text', runs: 3000, benchRuns: 100_000, property: checkFilesProperty() },
    { name: 'discovery (.jsonl): any library file', runs: 600, benchRuns: 100_000, property: jsonlProperty(tmp) },
    { name: 'discovery (folders): any tree of folders, files and links', runs: 150, benchRuns: 100_000, property: discoveryProperty(tmp) },
    { name: 'vector cache: any damage to vectors.bin', runs: 600, benchRuns: 100_000, property: vectorCacheProperty(tmp) },
    { name: 'model manifest: any manifest.json', runs: 1000, benchRuns: 100_000, property: manifestProperty(tmp) },
    { name: 'CLI: any command line', runs: 3000, benchRuns: 100_000, property: cliProperty(tmp) },
  ];
}
