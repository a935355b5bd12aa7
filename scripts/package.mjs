// Builds a platform .vsix: bundles, the default model, and only this target's native binaries.
//   node scripts/package.mjs [--target linux-x64] [--ls]   (--ls prints the file list only)
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
const at = args.indexOf('--target');
const target = at >= 0 ? args[at + 1] : `${process.platform}-${process.arch}`;
const [platform, arch] = target.split('-');
const listOnly = args.includes('--ls');

// The allowlist names native folders with {platform}/{arch}; fill them in for this target.
const ignore = readFileSync('.vscodeignore', 'utf8').replaceAll('{platform}', platform).replaceAll('{arch}', arch);
mkdirSync('out', { recursive: true });
const ignoreFile = join('out', `vscodeignore.${target}`);
writeFileSync(ignoreFile, ignore);

const vsce = join('node_modules', '@vscode', 'vsce', 'vsce');
const common = ['--ignoreFile', ignoreFile];
if (listOnly) {
  process.stdout.write(execFileSync(process.execPath, [vsce, 'ls', ...common], { encoding: 'utf8' }));
} else {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
  const out = `${pkg.name}-${pkg.version}-${target}.vsix`;
  execFileSync(process.execPath, [vsce, 'package', '--target', target, '--out', out, '--allow-missing-repository',
    '--no-rewrite-relative-links', ...common], { stdio: 'inherit' });
  console.log(`${out}: ${(statSync(out).size / 1048576).toFixed(1)} MB`);
}
