/**
 * What must stay in step across files: settings in package.json vs settings.ts, custom LSP
 * methods vs docs/lsp-extensions.md, diagnostic codes vs docs/diagnostics.md, the front-matter
 * grammar vs the profiles' keys, and the extension manifest's commands.
 */
import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { CLIENT_PROFILES, defaultProfiles, SPEC_FIELDS } from '../../src/core/profiles';
import { SERVER_CODES } from '../../src/server/diagnostics';
import { KEY_DOCS } from '../../src/server/frontMatterHelp';
import { DEFAULT_SETTINGS, flatDefaults, sanitiseSettings, indexAffected, withProfiles } from '../../src/server/settings';
import { CUSTOM_METHODS, RESTART_SETTINGS } from '../../src/shared/protocol';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const read = (p: string) => readFileSync(path.join(ROOT, p), 'utf8');
const pkg = JSON.parse(read('package.json'));
const properties: Record<string, { default?: unknown; scope?: string; markdownDescription?: string; description?: string }> =
  pkg.contributes.configuration.properties;

/** Every code the engine and the server can put on a file, found in their sources. */
function emittedCodes(): string[] {
  const found = new Set<string>(Object.values(SERVER_CODES));
  const dirs = ['src/core/parse', 'src/core/analysis', 'src/core/reach'];
  for (const dir of dirs) {
    for (const f of readdirSync(path.join(ROOT, dir)).filter((n) => n.endsWith('.ts'))) {
      for (const m of read(`${dir}/${f}`).matchAll(/'((?:frontmatter|skill|file|body)\.[a-z][a-z-]*)'/g)) found.add(m[1]);
    }
  }
  return [...found].sort();
}

describe('contract: settings', () => {
  it('package.json declares every setting with the default settings.ts uses, a description and a scope', () => {
    const defaults = flatDefaults();
    assert.deepEqual(Object.keys(properties).sort(), Object.keys(defaults).sort());
    for (const [key, value] of Object.entries(defaults)) {
      assert.deepEqual(properties[key].default, value, key);
      assert.ok(properties[key].markdownDescription || properties[key].description, `${key} has a description`);
      assert.ok(properties[key].scope, `${key} has a scope`);
    }
  });

  it('the model settings are window-scoped (the settings page lists them; machine scopes hide them in a remote window) and the folder restricted in untrusted workspaces; restart settings exist', () => {
    for (const key of ['skillRouter.model.enabled', 'skillRouter.model.folder', 'skillRouter.model.device']) assert.equal(properties[key].scope, 'window', key);
    assert.deepEqual(pkg.capabilities.untrustedWorkspaces.restrictedConfigurations, ['skillRouter.model.folder']);
    for (const key of RESTART_SETTINGS) assert.ok(properties[key], key);
  });

  it('sanitises what the client sends: bad values fall back to the defaults and are named', () => {
    assert.deepEqual(sanitiseSettings(undefined).settings, { ...DEFAULT_SETTINGS, profiles: [] }, 'unset: the folder chooses');
    const { settings, problems } = sanitiseSettings({
      profiles: ['codex', 'nope', 'codex'],
      route: { topK: 0, rerank: 'yes' },
      nearDuplicate: { threshold: 0.8 },
      pairs: { acrossFolders: 'yes' },
      diagnostics: { severity: { 'skill.conflict': 'warning', 'skill.budget': 'loud' }, scope: 'openFiles' },
      listingBudget: 5000,
      logLevel: 'debug',
    });
    assert.deepEqual(settings.profiles, ['codex']);
    assert.equal(settings.route.topK, 10);
    assert.equal(settings.route.rerank, true);
    assert.equal(settings.nearDuplicate.threshold, 0.8);
    assert.equal(settings.pairs.acrossFolders, false);
    assert.deepEqual(settings.diagnostics.severity, { 'skill.conflict': 'warning' });
    assert.equal(settings.diagnostics.scope, 'openFiles');
    assert.equal(settings.listingBudget, 5000);
    assert.equal(problems.length, 5, problems.join('\n'));
    // Empty: the folder's default, resolved by the server with the folder's layout.
    assert.deepEqual(sanitiseSettings({ profiles: [] }).settings.profiles, []);
    const auto = withProfiles(sanitiseSettings({}).settings, () => ({ profiles: ['copilot'], from: '.github/skills' }));
    assert.deepEqual([auto.profiles, auto.profilesFrom], [['copilot'], '.github/skills']);
    const set = withProfiles(sanitiseSettings({ profiles: ['codex'] }).settings, () => assert.fail('the setting wins'));
    assert.deepEqual([set.profiles, set.profilesFrom], [['codex'], 'skillRouter.profiles']);
    assert.deepEqual(withProfiles(sanitiseSettings({}).settings, () => null).profiles, ['spec']);
  });

  it('the default profiles follow the folder: one rule for the editor and check', () => {
    const has = (...folders: string[]) => (f: string) => folders.includes(f);
    assert.deepEqual(defaultProfiles('/repo/.claude/skills', has()), { profiles: ['claude-code'], from: '.claude/skills' });
    assert.deepEqual(defaultProfiles('/repo/.github/skills/pdf', has()).profiles, ['copilot']);
    assert.deepEqual(defaultProfiles('/repo', has('.github/skills', '.agents/skills')), { profiles: ['copilot', 'codex'], from: '.github/skills, .agents/skills' });
    assert.deepEqual(defaultProfiles('/repo', has('.agents/skills', '.codex/skills')).profiles, ['codex']);
    const none = defaultProfiles('/repo/skills', has('.claude'));
    assert.deepEqual(none.profiles, ['spec']);
    assert.match(none.from, /^no client skill folder found: \.claude\/skills, \.github\/skills/);
    // A name that only starts like a client folder is none.
    assert.deepEqual(defaultProfiles('/repo/.claude/skills-old', has()).profiles, ['spec']);
  });

  it('only index-shaping settings re-index a folder', () => {
    const s = DEFAULT_SETTINGS;
    assert.ok(!indexAffected(s, { ...s, diagnostics: { ...s.diagnostics, scope: 'openFiles' } }));
    assert.ok(!indexAffected(s, { ...s, conflict: { threshold: 0.5, maxPerSkill: 1 } }));
    assert.ok(indexAffected(s, { ...s, profiles: ['codex'] }));
    assert.ok(indexAffected(s, { ...s, nearDuplicate: { threshold: 0.8 } }));
    assert.ok(indexAffected(s, { ...s, pairs: { acrossFolders: true } }));
  });
});

describe('contract: docs', () => {
  it('docs/lsp-extensions.md documents every custom method', () => {
    const doc = read('docs/lsp-extensions.md');
    for (const method of CUSTOM_METHODS) assert.match(doc, new RegExp(`^## ${method.replace('/', '\\/')}$`, 'm'), method);
  });

  it('docs/diagnostics.md has an anchor for every code the engine and server emit', () => {
    const doc = read('docs/diagnostics.md');
    const codes = emittedCodes();
    assert.ok(codes.includes('skill.near-duplicate') && codes.includes('frontmatter.name-mismatch') && codes.includes('file.unreadable') && codes.includes('body.pipe-to-shell') && codes.includes('skill.duplicate-name'));
    for (const code of codes) assert.ok(doc.includes(`<a id="${code}"></a>\n### ${code}`), `docs/diagnostics.md lacks ${code}`);
  });
});

describe('contract: front-matter keys', () => {
  const allKeys = [...new Set([...SPEC_FIELDS, ...Object.values(CLIENT_PROFILES).flatMap((p) => p.extraKeys)])].sort();

  it('hover has words for every key of every profile', () => {
    assert.deepEqual(Object.keys(KEY_DOCS).sort(), allKeys);
  });

  it('the TextMate injection highlights exactly the spec keys and the profiles\' keys', () => {
    const grammar = JSON.parse(read('syntaxes/skill-frontmatter.injection.tmLanguage.json'));
    const keysOf = (rule: string) => /^\^\(([^)]*)\)/.exec(grammar.repository[rule].match)![1].split('|').sort();
    assert.deepEqual(keysOf('spec-key'), [...SPEC_FIELDS].sort());
    assert.deepEqual(keysOf('client-key'), allKeys.filter((k) => !(SPEC_FIELDS as readonly string[]).includes(k)));
    const contributed = pkg.contributes.grammars.find((g: { scopeName: string }) => g.scopeName === grammar.scopeName);
    assert.deepEqual(contributed.injectTo, ['text.html.markdown']);
    for (const rule of ['spec-key', 'client-key']) {
      const re = new RegExp(grammar.repository[rule].match);
      assert.ok(!re.test('notakey: x'));
    }
    assert.ok(new RegExp(grammar.repository['spec-key'].match).test('description: x'));
    assert.ok(!new RegExp(grammar.repository['spec-key'].match).test('  description: nested'));
  });
});

describe('contract: install scripts', () => {
  it('npm runs only reviewed install scripts: never onnxruntime-node\'s CUDA download, nor anything unlisted', () => {
    // package.json's allowScripts (npm's install-script policy) replaces the .npmrc keys npm now
    // warns about: onnxruntime-node's postinstall fetches CUDA files from nuget.org on Linux x64
    // unless told to skip (the CPU binaries ship in the package), keytar's fetches a binary from GitHub.
    assert.equal(pkg.allowScripts['onnxruntime-node'], false);
    assert.equal(pkg.allowScripts.keytar, false);
    const lock = JSON.parse(read('package-lock.json'));
    const withScripts = Object.entries(lock.packages as Record<string, { hasInstallScript?: boolean }>)
      .filter(([, p]) => p.hasInstallScript)
      .map(([where]) => where.replace(/^.*node_modules\//, ''));
    for (const name of withScripts) assert.ok(name in pkg.allowScripts, `${name} has an install script: review it and list it in allowScripts`);
    assert.equal(existsSync(path.join(ROOT, '.npmrc')), false, 'no project .npmrc keys npm does not know');
  });
});

describe('contract: extension manifest', () => {
  it('contributes the five commands, activates on SKILL.md workspaces, and keeps engines.vscode at ^1.100.0', () => {
    const commands = pkg.contributes.commands.map((c: { command: string }) => c.command).sort();
    assert.deepEqual(commands, ['skillRouter.copyMcpConfig', 'skillRouter.openQueryPanel', 'skillRouter.reindex', 'skillRouter.restartServer', 'skillRouter.showListingCost', 'skillRouter.showOutput']);
    assert.ok(pkg.activationEvents.includes('workspaceContains:**/SKILL.md'));
    assert.equal(pkg.engines.vscode, '^1.100.0');
    assert.equal(pkg.main, './dist/extension.js');
    const client = read('src/client/extension.ts');
    for (const c of commands) assert.ok(client.includes(`'${c}'`), `${c} is registered`);
  });

  it('only src/client imports vscode', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
        const rel = `${dir}/${e.name}`;
        if (e.isDirectory()) walk(rel);
        else if (rel.endsWith('.ts') && /from 'vscode'|require\('vscode'\)/.test(read(rel))) offenders.push(rel);
      }
    };
    for (const layer of ['src/core', 'src/node', 'src/server', 'src/shared', 'src/cli']) walk(layer);
    assert.deepEqual(offenders, []);
  });

  it('only src/cli imports src/cli: the editor and the CLI share core, not each other', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
        const rel = `${dir}/${e.name}`;
        if (e.isDirectory()) walk(rel);
        else if (rel.endsWith('.ts') && /from '(\.\.\/)+cli\//.test(read(rel))) offenders.push(rel);
      }
    };
    for (const layer of ['src/core', 'src/node', 'src/server', 'src/shared', 'src/client', 'src/webview']) walk(layer);
    assert.deepEqual(offenders, []);
  });
});
