/**
 * Discovery on a large workspace with few skills: generates a tree of 50,000 files (a monorepo of
 * packages with sources, plus `node_modules` and `.git` folders the walk skips, and 20 skills), then
 * times the walk alone (`FsWorkspace.list`) and the lexical index (`openLibrary`, then `index`,
 * which walks again). The first `openLibrary` of a process loads the dictionaries. Prints a table;
 * never fails on time (it stops if a skill is missed).
 *
 *   node out/bench/walk.js [--files 50000] [--skills 20] [--repeat 3]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { FsWorkspace } from '../src/node/fsWorkspace';
import { openLibrary } from '../src/node/library';

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

/** Writes `files` files: 90% sources, 5% under node_modules, 5% under .git; then `skills` SKILL.md. */
function generate(root: string, files: number, skills: number): { dirs: number; skipped: number; expected: string[] } {
  let written = 0;
  let dirs = 0;
  const expected: string[] = [];
  const fill = (dir: string, count: number, ext: string) => {
    mkdirSync(dir, { recursive: true });
    dirs++;
    for (let i = 0; i < count && written < files; i++, written++) writeFileSync(path.join(dir, `f${i}.${ext}`), '');
  };
  const packages = Math.max(1, Math.floor(files / 500));
  for (let p = 0; p < packages && written < files; p++) {
    const pkg = path.join(root, 'packages', `pkg-${p}`);
    for (let m = 0; m < 6; m++) fill(path.join(pkg, 'src', `mod-${m}`), 75, 'ts');
    fill(path.join(pkg, 'node_modules', 'dep', 'lib'), 25, 'js');
  }
  const beforeGit = written;
  fill(path.join(root, '.git', 'objects', 'aa'), files - written, 'obj');
  const skipped = packages * 25 + (written - beforeGit);
  for (let s = 0; s < skills; s++) {
    const id = path.join('packages', `pkg-${s % packages}`, 'skills', `skill-${s}`);
    mkdirSync(path.join(root, id), { recursive: true });
    writeFileSync(path.join(root, id, 'SKILL.md'), `---\nname: skill-${s}\ndescription: Handles the work of package ${s}.\n---\n# Skill ${s}\n`);
    expected.push(id.split(path.sep).join('/'));
  }
  return { dirs, skipped, expected: expected.sort() };
}

async function run(): Promise<void> {
  const files = flag('--files', 50_000);
  const skills = flag('--skills', 20);
  const repeat = flag('--repeat', 3);
  const root = mkdtempSync(path.join(tmpdir(), 'sr-walk-'));
  try {
    let t = performance.now();
    const { dirs, skipped, expected } = generate(root, files, skills);
    console.log(
      `generated ${files.toLocaleString('en-US')} files in ${dirs} folders (${skipped.toLocaleString('en-US')} of them under ` +
        `node_modules and .git, which the walk skips) and ${skills} skills in ${((performance.now() - t) / 1000).toFixed(1)} s\n`,
    );
    console.log('| run | walk (list) ms | skills found | problems | openLibrary ms | index ms |');
    console.log('|---|---:|---:|---:|---:|---:|');
    for (let i = 0; i < repeat; i++) {
      t = performance.now();
      const listed = await new FsWorkspace(root).list();
      const walkMs = performance.now() - t;
      const found = listed.files.map((f) => f.id).sort();
      if (JSON.stringify(found) !== JSON.stringify(expected)) throw new Error(`found ${found.length} skills, expected ${expected.length}`);
      t = performance.now();
      const svc = await openLibrary({ root, noModel: true, cacheDir: path.join(root, '.skill-router-cache') });
      const openMs = performance.now() - t;
      t = performance.now();
      const stats = await svc.index();
      const indexMs = performance.now() - t;
      await svc.dispose();
      if (stats.skills !== skills) throw new Error(`indexed ${stats.skills} skills`);
      console.log(`| ${i === 0 ? 'first' : `repeat ${i}`} | ${walkMs.toFixed(0)} | ${found.length} | ${listed.problems.length} | ${openMs.toFixed(0)} | ${indexMs.toFixed(0)} |`);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

void run();
