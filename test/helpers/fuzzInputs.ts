/**
 * Generators for the fuzz properties (test/helpers/fuzzProperties.ts): SKILL.md text that is
 * mostly almost right (front matter with broken YAML, deep nesting, huge scalars, odd Unicode,
 * CRLF, BOM, mixed scripts, `---js` payloads), raw bytes, requests, and file trees.
 */
import fc from 'fast-check';

/** Characters that break parsers: controls, BOM, bidi, separators, case and NFKC changers, surrogates. */
const SPICY = [
  '\u0000', '\u0001', '\u0007', '\u001b', '\u007f', '\u0085', '\u00a0', '\u00ad', '\ufeff', '\u200b', '\u200d',
  '\u202e', '\u2066', '\u2028', '\u2029', '\ufffd', '\uffff', '\r', '\r\n', '\n', '\t', '\v', '\f',
  'İ', 'ß', 'ﬁ', 'Ⅸ', 'K', 'e\u0301', '\u0301', 'ǅ', 'ᾏ', '𝔘', '😀', '👩‍💻', '🏳️‍🌈', '\ud83d', '\ude00',
  '数', '据', '可视化', 'データ', 'ا', 'ע', 'ह', 'ि', 'ก', 'Ж',
  '\\', '"', "'", ':', '#', '&', '*', '!', '|', '>', '-', '?', '%', '@', '`', '{', '}', '[', ']', ',', '<', '(', ')',
  '---', '...', '<<', '<!--', '-->', '```', '~~~', '${', '%00', '../', '/',
];
const PLAIN = 'abcdefghijklmnopqrstuvwxyz0123456789-_ '.split('');

/**
 * Any code point. (fc.string's 'binary' unit builds a reverse map of all 1.1 million code points
 * the first time it shrinks, which costs seconds.)
 */
const codePoint: fc.Arbitrary<string> = fc.integer({ min: 0, max: 0x10ffff }).map((c) => String.fromCodePoint(c));

/** One character (or short cluster) that is usually plain, often hostile. */
export const oddChar: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...PLAIN) },
  { weight: 3, arbitrary: fc.constantFrom(...SPICY) },
  { weight: 2, arbitrary: codePoint },
  { weight: 1, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)) },
);

export const oddText = (maxLength = 24): fc.Arbitrary<string> => fc.array(oddChar, { maxLength }).map((a) => a.join(''));

const WORDS = [
  'pdf', 'extract', 'tables', 'invoice', 'scanned', 'deploy', 'kubernetes', 'helm', 'commit', 'message', 'git', 'review',
  'react', 'component', 'sql', 'query', 'tuning', 'image', 'resize', 'docx', 'npm', 'publish', 'the', 'and', 'please',
  '数据', '可视化', '图表', '部署', '提取', '表格', '的', 'データ', '可視化', 'résumé', 'naïve', 'İstanbul', 'straße', 'ﬁle',
  'node.js', 'c++', 'c#', 'snake_case', 'camelCase', 'HTTPServer', 'gpt-4o', 'v1.2.3', 'über', 'Москва', 'العربية',
  'עברית', 'हिन्दी', '😀', '👩‍💻', "don't", 'e.g.', '--flag', '12345678', 'x'.repeat(120),
];

export const words = (max = 12): fc.Arbitrary<string> =>
  fc.array(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...WORDS) }, { weight: 1, arbitrary: oddText(8) }), { maxLength: max }).map((w) => w.join(' '));

/** Units that, repeated, hit the worst case of a regular expression or a parser. */
const HUGE_UNITS = [
  'a', 'A', 'aA', '.', '-', "'", '[', '![', '[a](', '](', '<a', '</', '<!--', '\n', ' \n', '\r', '\r\n', '\t', ' ',
  '数', '数据', 'é', '#', '# h\n', '```\n', '|', '*', '- ', '- \n', '> ', '\\', '"', ':', '{', '😀', '\ud800', 'a.',
  'ab', 'A.b', '_', '__', 'x ',
];

/** A long run of one unit between short odd text: "huge scalars" and pathological repetition. */
export const huge = (min = 1_000, max = 60_000): fc.Arbitrary<string> =>
  fc
    .record({ unit: fc.constantFrom(...HUGE_UNITS), n: fc.integer({ min, max }), pre: oddText(4), post: oddText(4) })
    .map(({ unit, n, pre, post }) => pre + unit.repeat(Math.ceil(n / unit.length)) + post);

const KNOWN_KEYS = [
  'name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools', 'when_to_use',
  'disable-model-invocation', 'user-invocable', 'argument-hint', 'model', 'context', 'agent', 'hooks', 'paths', 'version',
];
/** Keys that find inherited members on a plain object, and keys YAML reads specially. */
export const TRICKY_KEYS = [
  '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype', '__defineGetter__', 'isPrototypeOf',
  '"name"', "'description'", '? name', '<<', '1', 'true', 'null', '~', '"', "''", '-', 'name ', ' name', 'Name', 'NAME',
];

export const yamlKey: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...KNOWN_KEYS) },
  { weight: 2, arbitrary: fc.constantFrom(...TRICKY_KEYS) },
  { weight: 2, arbitrary: oddText(10) },
);

const SKILL_NAMES = ['pdf-extract', 'k8s-deploy', 'a', 'pdf--tools', '-lead', 'trail-', 'PDF-Tools', 'pdf_tools', '数据可视化', 'café', 'x'.repeat(70)];
export const skillName: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...SKILL_NAMES) },
  { weight: 2, arbitrary: fc.stringMatching(/^[a-z0-9]{1,8}(-[a-z0-9]{1,8}){0,3}$/) },
  { weight: 1, arbitrary: oddText(12) },
);

const PLAIN_SCALARS = [
  'true', 'false', 'null', '~', 'yes', 'no', 'on', 'off', '.inf', '-.nan', '0x1F', '0o17', '1e999', '-0', '2024-01-01',
  '2001-12-14t21:59:43.10-05:00', '<<', '=', '!', '&', '*', '|', '>', '%YAML', '@x', '`x', '[]', '{}', "''", '""',
];
const TAGS = [
  '!!js/function', '!!js/regexp', '!!js/undefined', '!!python/object:os.system', '!!binary', '!!timestamp', '!!set',
  '!!omap', '!!pairs', '!!str', '!!int', '!!float', '!!bool', '!!null', '!!map', '!!seq', '!custom', '!<tag:yaml.org,2002:str>',
  '!!merge', '!',
];

const scalar: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: words(8) },
  { weight: 2, arbitrary: oddText(16) },
  { weight: 2, arbitrary: oddText(20).map((s) => JSON.stringify(s)) },
  { weight: 1, arbitrary: oddText(20).map((s) => `'${s.replace(/'/g, "''")}'`) },
  { weight: 1, arbitrary: oddText(20).map((s) => `"${s}"`) },
  { weight: 1, arbitrary: fc.oneof(fc.integer().map(String), fc.double().map(String), fc.constantFrom(...PLAIN_SCALARS)) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...TAGS), words(3)).map(([t, v]) => `${t} ${v}`) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('&a', '&b', '*a', '*b', '*zz'), words(2)).map(([a, v]) => `${a} ${v}`) },
);

/** Flow collections, nested. */
const flow: fc.Arbitrary<string> = fc.letrec<{ node: string; seq: string; map: string }>((tie) => ({
  node: fc.oneof({ depthSize: 'small', maxDepth: 5 }, scalar, tie('seq'), tie('map')),
  seq: fc.array(tie('node'), { maxLength: 4 }).map((a) => `[${a.join(', ')}]`),
  map: fc.array(fc.tuple(yamlKey, tie('node')), { maxLength: 4 }).map((a) => `{${a.map(([k, v]) => `${k}: ${v}`).join(', ')}}`),
})).node;

type BlockValue = { inline: string } | { lines: string[] };

/** Block mappings and sequences as lines, nested by indentation. */
const blockLines: fc.Arbitrary<string[]> = fc.letrec<{ value: BlockValue; map: string[]; list: string[] }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', maxDepth: 6 },
    fc.oneof(scalar, flow).map((inline): BlockValue => ({ inline })),
    tie('map').map((lines): BlockValue => ({ lines })),
    tie('list').map((lines): BlockValue => ({ lines })),
  ),
  map: fc
    .array(fc.tuple(yamlKey, tie('value')), { minLength: 1, maxLength: 4 })
    .map((entries) => entries.flatMap(([k, v]) => ('inline' in v ? [`${k}: ${v.inline}`] : [`${k}:`, ...v.lines.map((l) => `  ${l}`)]))),
  list: fc
    .array(tie('value'), { minLength: 1, maxLength: 4 })
    .map((items) => items.flatMap((v) => ('inline' in v ? [`- ${v.inline}`] : ['-', ...v.lines.map((l) => `  ${l}`)]))),
})).map;

const blockScalar: fc.Arbitrary<string[]> = fc
  .tuple(fc.constantFrom('|', '>', '|-', '>+', '|2', '>-', '|+', '|9', '>1-'), fc.array(oddText(30), { maxLength: 4 }), fc.constantFrom('  ', ' ', '\t', '    ', ''))
  .map(([style, lines, indent]) => [style, ...lines.map((l) => indent + l)]);

const BROKEN = [
  ': x', '- - -', '? ', 'name: [unclosed', 'description: {a: 1', 'name: "unterminated', "name: 'unterminated", '\tname: tab',
  'name: a: b', 'key: value # comment', '&anchor', '*undefined_alias', '<<: *nope', '%TAG ! tag:x', '--- # doc', '...',
  'key: "\\x"', 'key: "\\uZZZZ"', '!!', '  indented: wrongly', 'name:', 'name', 'description: >', 'a:\n- b\n c', ':', '- x',
  'name: a\nname: b', '[a, b]: c', '{x: y}: z', 'key: @reserved', 'key: `reserved', '\u00a0name: nbsp',
];

/** Code that would mark the process if front matter were ever evaluated as JavaScript. */
export const JS_PAYLOADS = [
  '{ name: (globalThis.__skillRouterFuzzPwned = 1, "x"), description: "d" }',
  'module.exports = (globalThis.__skillRouterFuzzPwned = 1)',
  '(function(){ globalThis.__skillRouterFuzzPwned = 1; return {} })()',
  'name = (globalThis.__skillRouterFuzzPwned = 1)',
];

/** Pathological nesting and alias expansion. */
export const deepYaml: fc.Arbitrary<string[]> = fc
  .tuple(fc.integer({ min: 20, max: 4000 }), fc.constantFrom('flow-seq', 'flow-map', 'block-map', 'block-seq', 'laughs', 'unbalanced'))
  .map(([n, kind]) => {
    switch (kind) {
      case 'flow-seq':
        return [`name: ${'['.repeat(n)}${']'.repeat(n)}`];
      case 'flow-map':
        return [`metadata: ${'{a: '.repeat(n)}1${'}'.repeat(n)}`];
      case 'block-map': {
        const d = Math.min(n, 300);
        return ['metadata:', ...Array.from({ length: d }, (_, i) => `${'  '.repeat(i + 1)}k${i}:`), `${'  '.repeat(d + 1)}v`];
      }
      case 'block-seq': {
        const d = Math.min(n, 300);
        return ['allowed-tools:', ...Array.from({ length: d }, (_, i) => `${' '.repeat(i + 1)}- `), `${' '.repeat(d + 2)}x`];
      }
      case 'laughs': {
        const levels = Math.min(9, 2 + (n % 8));
        const lines = ['a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
        for (let i = 1; i < levels; i++) lines.push(`a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(', ')}]`);
        lines.push(`metadata: {x: *a${levels - 1}}`);
        return lines;
      }
      default:
        return [`description: ${'[{'.repeat(n)}`];
    }
  });

const MD_LINES = [
  '```', '```python', '~~~', '---', '***', '> quote', '- item', '+ item', '* item', '1. item', '| a | b |', '|---|---|',
  '<div>', '</div>', '<!--', '-->', '<!-- c -->', '[link](http://x)', '![img](a.png)', '[[wiki]]', '[a]: http://ref',
  '    code', '\t\ttabbed', '', '#', '####### seven', '#nospace', '<script>alert(1)</script>', '$$x$$', '\\', '[x](y(z))',
];

const markdownLine: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: words(14) },
  { weight: 2, arbitrary: fc.tuple(fc.integer({ min: 1, max: 7 }), words(6)).map(([n, w]) => `${'#'.repeat(n)} ${w}`) },
  { weight: 2, arbitrary: fc.constantFrom(...MD_LINES) },
  { weight: 2, arbitrary: oddText(60) },
);

export const markdown: fc.Arbitrary<string> = fc.array(markdownLine, { maxLength: 24 }).map((l) => l.join('\n'));

const OPENERS = [
  '---', '---', '---', '---', '---yaml', '---js', '---javascript', '---coffee', '---toml', '--- ', '---\t', '----', '-- -', '', ' ---',
  '---json', '---JS', '---Yml', '---cson', '---constructor', '---__proto__',
];
const CLOSERS = ['---', '---', '---', '---', '...', '--- ', '---x', '', '----', '---\t'];

const frontMatterLines: fc.Arbitrary<string[]> = fc
  .array(
    fc.oneof(
      { weight: 6, arbitrary: fc.tuple(fc.constantFrom('name', 'description'), fc.oneof(skillName, scalar)).map(([k, v]) => [`${k}: ${v}`]) },
      { weight: 4, arbitrary: fc.tuple(yamlKey, fc.oneof(scalar, flow)).map(([k, v]) => [`${k}: ${v}`]) },
      { weight: 2, arbitrary: fc.tuple(yamlKey, blockScalar).map(([k, [style, ...rest]]) => [`${k}: ${style}`, ...rest]) },
      { weight: 2, arbitrary: blockLines },
      { weight: 2, arbitrary: fc.constantFrom(...BROKEN).map((b) => b.split('\n')) },
      { weight: 1, arbitrary: fc.constantFrom(...JS_PAYLOADS).map((p) => [p]) },
      { weight: 1, arbitrary: deepYaml },
      { weight: 1, arbitrary: fc.tuple(fc.constantFrom('name', 'description', 'compatibility', 'metadata'), huge(500, 5_000)).map(([k, v]) => [`${k}: ${JSON.stringify(v)}`]) },
    ),
    { maxLength: 8 },
  )
  .map((groups) => groups.flat());

const EOLS = ['\n', '\n', '\n', '\r\n', '\r', 'mixed'] as const;

function joinLines(lines: string[], eol: (typeof EOLS)[number], seed: number): string {
  if (eol !== 'mixed') return lines.join(eol);
  const pick = ['\n', '\r\n', '\r'];
  return lines.map((l, i) => (i === lines.length - 1 ? l : l + pick[(seed + i * 7) % 3])).join('');
}

/** A SKILL.md built line by line: opener, front matter, closer, body, with a line-ending style and an optional BOM. */
export const structuredSkill: fc.Arbitrary<string> = fc
  .record({
    bom: fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    open: fc.constantFrom(...OPENERS),
    fm: frontMatterLines,
    close: fc.constantFrom(...CLOSERS),
    body: markdown,
    eol: fc.constantFrom(...EOLS),
    seed: fc.nat(1000),
    trailer: fc.constantFrom('', '', '\n', '\n---\nmore: yaml\n---\n', '\n---\n'),
  })
  .map(({ bom, open, fm, close, body, eol, seed, trailer }) =>
    (bom ? '\ufeff' : '') + joinLines([open, ...fm, close, ...body.split('\n')], eol, seed) + trailer,
  );

const BASES = [
  '---\nname: pdf-extract\ndescription: Extract text and tables from PDF files, including scanned invoices.\n---\n# PDF\n\nUse pdftotext.\n',
  '---\nname: 数据可视化\ndescription: 用图表展示数据\nmetadata:\n  owner: x\n  tags: [a, b]\n---\n## 步骤\n\n先读取数据。\n',
  '---\r\nname: k8s-deploy\r\ndescription: >\r\n  Deploy services to Kubernetes\r\n  with Helm charts.\r\nallowed-tools: [Bash, Read]\r\n---\r\nBody\r\n',
  '\ufeff---\nname: "quoted"\ndescription: \'single\'\nlicense: MIT\ncompatibility: node >= 20\n---\n```js\nconst x = 1;\n```\n',
  '---\nname: a\ndescription: |\n  line one\n  line two\nwhen_to_use: when asked\n---\n',
];

interface Edit {
  pos: number;
  kind: 'insert' | 'delete' | 'dup' | 'replace';
  text: string;
  len: number;
}

/** A valid SKILL.md with a few random edits: inserts, deletions, duplications, replacements. */
export const mutatedSkill: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(...BASES),
    fc.array(
      fc.record({ pos: fc.nat(), kind: fc.constantFrom('insert', 'delete', 'dup', 'replace'), text: oddText(6), len: fc.integer({ min: 1, max: 20 }) }) as fc.Arbitrary<Edit>,
      { minLength: 1, maxLength: 6 },
    ),
  )
  .map(([base, edits]) =>
    edits.reduce((s, e) => {
      const at = s.length ? e.pos % (s.length + 1) : 0;
      if (e.kind === 'insert') return s.slice(0, at) + e.text + s.slice(at);
      if (e.kind === 'delete') return s.slice(0, at) + s.slice(at + e.len);
      if (e.kind === 'dup') return s.slice(0, at + e.len) + s.slice(at, at + e.len) + s.slice(at + e.len);
      return s.slice(0, at) + e.text + s.slice(at + e.len);
    }, base),
  );

/** SKILL.md text of ordinary size: structured, mutated or random. */
export const smallSkillText: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: structuredSkill },
  { weight: 3, arbitrary: mutatedSkill },
  { weight: 1, arbitrary: oddText(300) },
  { weight: 1, arbitrary: fc.array(codePoint, { maxLength: 300 }).map((c) => c.join('')) },
);

/** Any SKILL.md text, one in fourteen with a huge body. */
export const skillText: fc.Arbitrary<string> = fc.oneof(
  { weight: 13, arbitrary: smallSkillText },
  { weight: 1, arbitrary: fc.tuple(structuredSkill, huge()).map(([s, h]) => `${s}\n${h}`) },
);

/** Raw bytes of a SKILL.md: random, UTF-8 with spliced junk, Latin-1, UTF-16, around the 1 MB limit (`edge`). */
export const skillBytes = (maxSkillBytes: number, edge = true): fc.Arbitrary<Uint8Array> =>
  fc.oneof(
    { weight: 10, arbitrary: fc.uint8Array({ maxLength: 600 }) },
    { weight: 12, arbitrary: skillText.map((t) => new Uint8Array(Buffer.from(t, 'utf8'))) },
    {
      weight: 10,
      arbitrary: fc.tuple(skillText, fc.uint8Array({ minLength: 1, maxLength: 16 }), fc.nat()).map(([t, junk, at]) => {
        const b = Buffer.from(t, 'utf8');
        const i = b.length ? at % b.length : 0;
        return new Uint8Array(Buffer.concat([b.subarray(0, i), Buffer.from(junk), b.subarray(i)]));
      }),
    },
    { weight: 3, arbitrary: skillText.map((t) => new Uint8Array(Buffer.from(t, 'latin1'))) },
    { weight: 3, arbitrary: skillText.map((t) => new Uint8Array(Buffer.from(`\ufeff${t}`, 'utf16le'))) },
    {
      // Each costs a 1 MB parse; rare enough to keep the mean input cheap.
      weight: edge ? 1 : 0,
      arbitrary: fc.tuple(fc.integer({ min: -2, max: 2 }), fc.constantFrom(0x61, 0x0a, 0xe9)).map(([d, byte]) => {
        const b = new Uint8Array(maxSkillBytes + d).fill(byte);
        b.set(Buffer.from('---\nname: big\ndescription: big\n---\n'));
        return b;
      }),
    },
  );

/** A request as users type it, or as an attacker would. */
export const query: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: words(12) },
  { weight: 2, arbitrary: oddText(40) },
  { weight: 1, arbitrary: fc.constantFrom('', '   ', '\u200b', '!!!', '数据可视化图表', 'a', 'the and of', '\n\n', 'SELECT * FROM skills;') },
  { weight: 1, arbitrary: huge(200, 20_000) },
);

/** A file or folder name: plain, hidden, skipped by discovery, odd Unicode, very long. */
export const fileName: fc.Arbitrary<string> = fc
  .oneof(
    { weight: 4, arbitrary: fc.constantFrom('a', 'b', 'skills', 'pdf-extract', 'Docs', 'sub') },
    { weight: 2, arbitrary: fc.constantFrom('node_modules', '.git', '.claude', '.github', '.hidden', 'SKILL.md', 'skill.md', 'SKILL.MD') },
    { weight: 2, arbitrary: fc.constantFrom('数据', 'İ', 'e\u0301', 'é', ' ', '-', '\u202e', 'x'.repeat(200), 'a b', "it's", '#', '%', '\\', ':') },
    { weight: 1, arbitrary: fc.array(oddChar, { minLength: 1, maxLength: 8 }).map((c) => c.join('')) },
  )
  .filter((n) => n !== '.' && n !== '..' && !n.includes('/') && !n.includes('\0') && Buffer.byteLength(n) <= 255);

export type TreeEntry =
  | { kind: 'skill'; dir: string[]; text: string }
  | { kind: 'file'; dir: string[]; name: string }
  | { kind: 'dir'; dir: string[] }
  | { kind: 'link'; dir: string[]; name: string; target: string };

/** A small library tree: skills, other files, empty folders and symbolic links (loops, aliases, dangling). */
export const tree: fc.Arbitrary<TreeEntry[]> = fc.array(
  fc.oneof(
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('skill' as const), dir: fc.array(fileName, { maxLength: 3 }), text: fc.oneof(structuredSkill, mutatedSkill) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('file' as const), dir: fc.array(fileName, { maxLength: 3 }), name: fileName }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('dir' as const), dir: fc.array(fileName, { minLength: 1, maxLength: 3 }) }) },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('link' as const),
        dir: fc.array(fileName, { maxLength: 2 }),
        name: fileName,
        target: fc.constantFrom('.', '..', '../..', '../../..', '/', 'a', '../a', 'b/c', 'nowhere', 'SKILL.md', '../SKILL.md', '@self', '@root', '@sibling'),
      }),
    },
  ),
  { maxLength: 10 },
);
