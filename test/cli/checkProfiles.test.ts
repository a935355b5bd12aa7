// `skill-router check` chooses its profiles from the library's folder as the editor does
// (core/profiles.ts defaultProfiles): a library in `.claude/skills` is checked for Claude Code, one
// in a plain folder for the spec alone; the report says which and why. Runs the built bundle
// (dist/cli.js) in process, lexical only (--no-model).
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');

type Main = (io: { argv: string[]; cwd: string; stdout: (s: string) => void; stderr: (s: string) => void; env?: Record<string, string | undefined> }) => Promise<number>;

function loadMain(): Main {
  const bundle = join(ROOT, 'dist/cli.js');
  assert.ok(existsSync(bundle), `${bundle} is missing: run node esbuild.mjs first`);
  return (require(bundle) as { main: Main }).main;
}

describe('cli: check chooses its profiles from the library folder, as the editor does', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'sr-profiles-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** A one-skill library at `rel` under the temporary folder, with a Claude Code-only key. */
  const library = (rel: string) => {
    const skill = join(dir, rel, 'deploy-notes');
    mkdirSync(skill, { recursive: true });
    writeFileSync(join(skill, 'SKILL.md'), '---\nname: deploy-notes\ndescription: Write release notes for a deployment from merged pull requests.\nwhen_to_use: After a release is tagged.\n---\n\n# Deploy notes\n');
    return join(dir, rel);
  };

  const check = async (cwd: string, format: 'json' | 'text', ...extra: string[]) => {
    const out = { stdout: '', stderr: '' };
    const code = await loadMain()({
      argv: ['check', '--no-model', '--quiet', '--cache', join(dir, 'cache', String(Math.random()).slice(2)), '--format', format, ...extra],
      cwd,
      stdout: (s) => void (out.stdout += s),
      stderr: (s) => void (out.stderr += s),
      env: {},
    });
    assert.notEqual(code, 2, out.stderr);
    return out.stdout;
  };
  const unknownKeys = (json: string) => (JSON.parse(json).findings as { code: string }[]).filter((f) => f.code === 'frontmatter.unknown-key').length;

  it('.claude/skills: Claude Code, whose when_to_use is no unknown key', async () => {
    const root = library('repo/.claude/skills');
    const json = JSON.parse(await check(root, 'json'));
    assert.deepEqual(json.profiles, { ids: ['claude-code'], from: '.claude/skills' });
    assert.equal(unknownKeys(await check(root, 'json')), 0);
    assert.match(await check(root, 'text'), /^profiles: claude-code \(\.claude\/skills\)$/m);
    // From the repository root, which holds the folder: the same.
    assert.deepEqual(JSON.parse(await check(join(dir, 'repo'), 'json')).profiles.ids, ['claude-code']);
  });

  it('a plain folder: the spec alone, which reports when_to_use; --profile overrides and says so', async () => {
    const root = library('plain/skills');
    const json = await check(root, 'json');
    assert.deepEqual(JSON.parse(json).profiles.ids, ['spec']);
    assert.equal(unknownKeys(json), 1);
    const chosen = JSON.parse(await check(root, 'json', '--profile', 'claude-code'));
    assert.deepEqual(chosen.profiles, { ids: ['claude-code'], from: '--profile' });
  });
});
