#!/usr/bin/env node
/**
 * Converts public skill libraries' own routing tests into real suites for bench/libraries.ts
 * (`--realsuites bench/realsuites`): per library `library/<skill-id>/SKILL.md` (byte-identical
 * copies, skill id = the SKILL.md folder name), `pos.jsonl`, `neg.jsonl`, `LICENSE` and a generated
 * `SOURCE.md`. Reads each repository from a bare git snapshot (the `fetch` tool's
 * `<mirror>/<owner>+<name>/repo`) at the commit its table entry pins, so the output is reproducible; the
 * queries are the authors' text, never rewritten.
 *
 *   node bench/realsuites/convert.mjs [--mirror /work/.mirror] [--out bench/realsuites] [--only kujo,spring]
 *
 * A library whose snapshot is absent is skipped with a message. Fetched content stays out of git
 * (see bench/realsuites/.gitignore); this script, the library tables it reads (sources-first.mjs,
 * sources-later.mjs, sources-fifth.mjs, sources-sixth.mjs, sources-seventh.mjs, sourceHelpers.mjs),
 * SOURCE.md and SPLIT.md are what is committed.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { arr, scriptLang } from './sourceHelpers.mjs';
import { FIRST } from './sources-first.mjs';
import { LATER } from './sources-later.mjs';
import { FIFTH } from './sources-fifth.mjs';
import { SIXTH } from './sources-sixth.mjs';
import { SEVENTH } from './sources-seventh.mjs';

const { values } = parseArgs({
  options: {
    mirror: { type: 'string', default: '/work/.mirror' },
    out: { type: 'string', default: 'bench/realsuites' },
    only: { type: 'string' },
  },
});

/**
 * Each library: where its skills and tests live at the pinned commit, and how its cases map to
 * rows. `parse(read, files, text)` (`read`: a JSON file, `files`: the paths, `text`: a file as
 * UTF-8) returns rows `{id, query, skills?, alsoOk?, not?, source, extra?}` (a row
 * with `skills` is a positive, its `not` the neighbours that must not come first; a row with only
 * `not` is a negative, `not: []` meaning no skill of the library should fire) or
 * `{id, source, drop}` for a case that cannot be converted.
 */
const LIBRARIES = [...FIRST, ...LATER, ...FIFTH, ...SIXTH, ...SEVENTH];

function convert(lib) {
  const gitDir = path.join(values.mirror, lib.repo.replace('/', '+'), 'repo');
  if (!existsSync(gitDir)) {
    process.stderr.write(`${lib.name}: no snapshot at ${gitDir}, skipped\n`);
    return;
  }
  const git = (...args) => execFileSync('git', ['--git-dir', gitDir, ...args], { maxBuffer: 1 << 28 });
  const commit = git('rev-parse', `${lib.commit}^{commit}`).toString().trim();
  const date = git('show', '-s', '--format=%ci', commit).toString().trim();
  const files = git('ls-tree', '-r', '--name-only', commit).toString().split('\n').filter(Boolean);
  const blob = (p) => git('show', `${commit}:${p}`);
  const read = (p) => JSON.parse(blob(p).toString('utf8'));

  // The library: every SKILL.md at the commit, one folder each (ids must stay unique once flattened);
  // a library with `skillRoot` keeps only the SKILL.md files under the folders its authors' test
  // harness loads (test fixtures, vendored copies and build outputs left out; its rules say which).
  const allSkillMd = files.filter((f) => path.basename(f) === 'SKILL.md');
  const skillPaths = lib.skillRoot ? allSkillMd.filter((f) => lib.skillRoot.test(f)) : allSkillMd;
  const byId = new Map();
  const byName = new Map();
  for (const p of skillPaths) {
    const id = path.basename(path.dirname(p));
    if (byId.has(id)) throw new Error(`${lib.name}: two skills named ${id} (${byId.get(id)}, ${p})`);
    byId.set(id, p);
    const name = /^name:\s*["']?([^"'\n]+?)["']?\s*$/m.exec(blob(p).toString('utf8'))?.[1];
    if (name && name !== id) byName.set(name, id);
  }
  const resolve = (s) => (byId.has(s) ? s : byName.get(s));

  const dropped = [];
  const pos = [];
  const neg = [];
  const seen = new Set();
  const ids = new Map();
  const uniqueId = (id) => {
    const n = ids.get(id) ?? 0;
    ids.set(id, n + 1);
    return n ? `${id}~${n + 1}` : id;
  };
  for (const row of lib.parse(read, () => files, (p) => blob(p).toString('utf8'))) {
    if (row.drop) {
      dropped.push({ id: row.id, why: row.drop });
      continue;
    }
    const missing = [...arr(row.skills), ...arr(row.not)].filter((s) => !resolve(s));
    if (missing.length) {
      dropped.push({ id: row.id, why: `names a skill absent from the library (${[...new Set(missing)].join(', ')})` });
      continue;
    }
    const not = arr(row.not).map(resolve);
    const lang = (lib.lang ?? ((r) => scriptLang(r.query)))(row);
    const base = { id: uniqueId(row.id), query: row.query };
    if (!row.skills) {
      const key = `neg\u0000${row.query}\u0000${[...not].sort().join(',')}`;
      if (seen.has(key)) {
        dropped.push({ id: row.id, why: 'duplicate of an earlier negative (same query and skills)' });
        continue;
      }
      seen.add(key);
      neg.push({ ...base, not, direction: `${lang}2${lib.skillLang}`, source: row.source, ...row.extra });
    } else {
      const skillIds = row.skills.map(resolve);
      const key = `pos\u0000${row.query}\u0000${[...skillIds].sort().join(',')}`;
      if (seen.has(key)) {
        dropped.push({ id: row.id, why: 'duplicate of an earlier positive (same query and skills)' });
        continue;
      }
      seen.add(key);
      const alsoOk = arr(row.alsoOk).map(resolve).filter((s) => s && !skillIds.includes(s));
      const boundary = not.filter((s) => !skillIds.includes(s));
      pos.push({ ...base, skill_ids: skillIds, k: skillIds.length, direction: `${lang}2${lib.skillLang}`, source: row.source, ...(alsoOk.length ? { also_ok: alsoOk } : {}), ...(boundary.length ? { not: boundary } : {}), ...row.extra });
    }
  }

  const dir = path.join(values.out, lib.name);
  rmSync(path.join(dir, 'library'), { recursive: true, force: true });
  for (const [id, p] of byId) {
    mkdirSync(path.join(dir, 'library', id), { recursive: true });
    writeFileSync(path.join(dir, 'library', id, 'SKILL.md'), blob(p));
  }
  const licensePath = files.find((f) => /^(LICEN[CS]E|COPYING)(\.(md|txt))?$/i.test(f));
  if (!licensePath) throw new Error(`${lib.name}: no licence file at the repository root`);
  const license = blob(licensePath);
  writeFileSync(path.join(dir, 'LICENSE'), license);
  const jsonl = (rows) => rows.map((r) => JSON.stringify(r)).join('\n') + (rows.length ? '\n' : '');
  writeFileSync(path.join(dir, 'pos.jsonl'), jsonl(pos));
  writeFileSync(path.join(dir, 'neg.jsonl'), jsonl(neg));
  writeFileSync(path.join(dir, 'SOURCE.md'), sourceMd({ lib, commit, date, licensePath, license, byId, byName, pos, neg, dropped, files, allSkillMd }));
  process.stderr.write(`${lib.name}: ${byId.size} skills, ${pos.length} positives, ${neg.length} negatives, ${dropped.length} dropped\n`);
}

function sourceMd({ lib, commit, date, licensePath, license, byId, byName, pos, neg, dropped, allSkillMd }) {
  const licenseText = license.toString('utf8');
  const licenseName = /^\s*MIT License/.test(licenseText)
    ? 'MIT'
    : /Apache License[\s\S]{0,80}Version 2\.0/.test(licenseText)
      ? 'Apache-2.0'
      : licenseText.split('\n').map((l) => l.trim()).find(Boolean);
  const copyright = /^.*copyright.*\d{4}.*$/im.exec(licenseText)?.[0]?.trim();
  const kHist = new Map();
  for (const r of pos) kHist.set(r.k, (kHist.get(r.k) ?? 0) + 1);
  const covered = new Set(pos.flatMap((r) => r.skill_ids));
  const dirs = new Map();
  for (const r of [...pos, ...neg]) dirs.set(r.direction, (dirs.get(r.direction) ?? 0) + 1);
  const folders = [...new Set([...byId.values()].map((p) => path.dirname(path.dirname(p)) || '.'))];
  const byWhy = new Map();
  for (const d of dropped) byWhy.set(d.why, [...(byWhy.get(d.why) ?? []), d.id]);
  return [
    `# ${lib.name}`,
    '',
    `- Repository: https://github.com/${lib.repo}`,
    `- Commit: \`${commit}\` (${date})`,
    `- License: ${licenseName} (\`${licensePath}\`${copyright ? `, "${copyright}"` : ''})`,
    '',
    '## Counts',
    '',
    '| skills | positives (with `not`) | negatives (of which `not: []`) | k histogram | skills with ≥1 positive |',
    '|---|---|---|---|---|',
    `| ${byId.size} | ${pos.length} (${pos.filter((r) => r.not).length}) | ${neg.length} (${neg.filter((r) => r.not.length === 0).length}) | ${[...kHist].sort((a, b) => a[0] - b[0]).map(([k, n]) => `k=${k}: ${n}`).join(', ')} | ${covered.size} |`,
    '',
    `Directions: ${[...dirs].map(([d, n]) => `${d} ${n}`).join(', ')}.`,
    '',
    '## Paths used',
    '',
    `- Library: ${lib.skillRoot ? `the \`SKILL.md\` files at the commit that match \`${lib.skillRoot.source}\` (${byId.size} of ${allSkillMd.length}; see Conversion for the others)` : `every \`SKILL.md\` at the commit (${byId.size})`}, under ${folders.map((f) => `\`${f}/\``).join(', ')}; copied to \`library/<folder name>/SKILL.md\`${byName.size ? `; ${byName.size} skills have a front-matter \`name\` other than their folder, and the tests' names were mapped to folder ids` : ''}.`,
    `- Tests: ${lib.tests.map((t) => `\`${t}\``).join(', ')}.`,
    '',
    '## Conversion',
    '',
    ...lib.rules.map((r) => `- ${r}`),
    '',
    'A positive\'s `not` lists the skills the authors say this request must not reach (bench/libraries.ts counts it under "boundary held"). A negative with `not: [x]` is a request the authors say must not trigger `x` and name no skill it should trigger; the bench (`negativeHeld` in src/core/eval/metrics.ts) counts it with the boundary negatives: held when `x` is not the first relevant result (another skill may answer). Only `not: []` is a request no skill should answer.',
    '',
    'Common rules (bench/realsuites/convert.mjs): skill id = the SKILL.md folder name; only SKILL.md files are copied, byte-identical to the commit; queries are the authors\' text; a case naming a skill absent from the library is dropped; positives (negatives) with the same query and skill set are deduplicated, first kept; ids are the authors\' where they have them (a `~N` suffix marks a repeated id); direction = query language (from its script) `2` the skills\' language. Fields beyond the common schema are informational.',
    '',
    '## Dropped cases',
    '',
    dropped.length ? `${dropped.length} cases dropped:` : 'None.',
    ...(dropped.length ? [''] : []),
    ...[...byWhy].map(([why, list]) => `- ${list.length} × ${why}: ${list.map((i) => `\`${i}\``).join(', ')}`),
    '',
  ].join('\n');
}

const only = values.only ? new Set(values.only.split(',')) : undefined;
for (const lib of LIBRARIES) if (!only || only.has(lib.name)) convert(lib);
