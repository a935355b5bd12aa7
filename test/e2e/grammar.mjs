// Tokenizes a SKILL.md with VS Code's own TextMate engine and grammars (from the code-server
// install) plus our injection, and checks that front-matter keys get our scopes and nothing else
// does. Prints "N passed, N failed".
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const TOOLS = process.env.E2E_TOOLS ?? path.join(ROOT, '.e2e', 'tools');
const VSCODE = path.join(TOOLS, 'node_modules', 'code-server', 'lib', 'vscode');
const require = createRequire(path.join(VSCODE, 'package.json'));
const tm = require('vscode-textmate');
const onig = require('vscode-oniguruma');

const wasm = readFileSync(path.join(VSCODE, 'node_modules', 'vscode-oniguruma', 'release', 'onig.wasm')).buffer;
await onig.loadWASM(wasm);
const ours = JSON.parse(readFileSync(path.join(ROOT, 'syntaxes', 'skill-frontmatter.injection.tmLanguage.json'), 'utf8'));
const grammars = {
  'text.html.markdown': path.join(VSCODE, 'extensions', 'markdown-basics', 'syntaxes', 'markdown.tmLanguage.json'),
  'source.yaml': path.join(VSCODE, 'extensions', 'yaml', 'syntaxes', 'yaml.tmLanguage.json'),
  'source.yaml.1.2': path.join(VSCODE, 'extensions', 'yaml', 'syntaxes', 'yaml-1.2.tmLanguage.json'),
  'source.yaml.1.3': path.join(VSCODE, 'extensions', 'yaml', 'syntaxes', 'yaml-1.3.tmLanguage.json'),
  'source.yaml.1.1': path.join(VSCODE, 'extensions', 'yaml', 'syntaxes', 'yaml-1.1.tmLanguage.json'),
  'source.yaml.1.0': path.join(VSCODE, 'extensions', 'yaml', 'syntaxes', 'yaml-1.0.tmLanguage.json'),
  'source.yaml.embedded': path.join(VSCODE, 'extensions', 'yaml', 'syntaxes', 'yaml-embedded.tmLanguage.json'),
};
const registry = new tm.Registry({
  onigLib: Promise.resolve({ createOnigScanner: (p) => new onig.OnigScanner(p), createOnigString: (s) => new onig.OnigString(s) }),
  loadGrammar: async (scope) => {
    if (scope === ours.scopeName) return ours;
    const file = grammars[scope];
    return file ? tm.parseRawGrammar(readFileSync(file, 'utf8'), file) : null;
  },
  // package.json: injectTo text.html.markdown
  getInjections: (scope) => (scope === 'text.html.markdown' ? [ours.scopeName] : undefined),
});
const grammar = await registry.loadGrammar('text.html.markdown');

const text = '---\nname: csv-tidy\ndescription: "name: not a key"\nwhen_to_use: CSV files\ntags: [x]\nmetadata:\n  version: 1\n---\n\nname: plain markdown text\n';
let state = tm.INITIAL;
const scopesOf = new Map();
text.split('\n').forEach((line, i) => {
  const r = grammar.tokenizeLine(line, state);
  state = r.ruleStack;
  for (const t of r.tokens) scopesOf.set(`${i}:${line.slice(t.startIndex, t.endIndex)}`, t.scopes.join(' '));
});
const has = (key, scope) => (scopesOf.get(key) ?? '').includes(scope);
const checks = [
  ['spec key "name" gets the spec scope', () => has('1:name', 'support.type.property-name.skill.spec')],
  ['spec key "description" gets the spec scope', () => has('2:description', 'support.type.property-name.skill.spec')],
  ['client key "when_to_use" gets the client scope', () => has('3:when_to_use', 'support.type.property-name.skill.client')],
  ['an unknown key keeps YAML\'s scopes only', () => !(scopesOf.get('4:tags') ?? '').includes('.skill.')],
  ['a nested key is not a front-matter key', () => ![...scopesOf].some(([k, v]) => k.startsWith('6:') && v.includes('.skill.'))],
  ['"name:" in the body is not highlighted', () => ![...scopesOf].some(([k, v]) => k.startsWith('9:') && v.includes('.skill.'))],
];
let passed = 0;
let failed = 0;
for (const [name, ok] of checks) {
  if (ok()) {
    passed++;
    console.log(`  ✔ grammar: ${name}`);
  } else {
    failed++;
    console.log(`  ✗ grammar: ${name}`);
  }
}
if (failed) console.log(JSON.stringify(Object.fromEntries(scopesOf), null, 1));
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
