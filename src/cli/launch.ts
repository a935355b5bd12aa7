/**
 * Starts the CLI bundle (dist/cli.js) with V8's code cache, so a process does not compile the
 * bundle, and the functions a command calls, again: the cache is made at the end of the first run
 * (it then holds what that run compiled) and written under the user cache folder, keyed by the
 * bundle's size and time and by Node's version; a cache V8 rejects, or none, is (re)written at
 * exit. A cache folder that cannot be written leaves the command as it would run without one.
 * `SKILL_ROUTER_CODE_CACHE=off` loads the bundle as a plain module. Kept apart from the bundle
 * (bin/skill-router.js loads this file, then the bundle through it) and small.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { createRequire, Module } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Readable } from 'node:stream';
import * as vm from 'node:vm';

type ModuleFunction = (exports: unknown, require: NodeRequire, module: Module, filename: string, dirname: string) => void;

/** What a first stop (hookFast.ts) hands over: the stdin it read, and arguments to add. */
export interface Handover {
  stdin: Readable;
  addArgs: string[];
}

/** Loads `bundle` (with the code cache) and runs its `runAsProcess`. */
export function launch(bundle: string, handover?: Handover): void {
  const exports = process.env.SKILL_ROUTER_CODE_CACHE === 'off' ? (createRequire(bundle)(bundle) as unknown) : loadCached(bundle);
  (exports as { runAsProcess(handover?: Handover): void }).runAsProcess(handover);
}

/** Where the code cache of `file` is kept (one file per bundle build and Node version). */
export function codeCacheFile(file: string): string {
  const st = fs.statSync(file);
  const key = createHash('sha1').update([path.resolve(file), st.size, st.mtimeMs, process.version, process.arch].join('\0')).digest('hex').slice(0, 16);
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'skill-router', 'code-cache', `${path.basename(file, '.js')}-${key}.bin`);
}

function loadCached(file: string): unknown {
  const cacheFile = codeCacheFile(file);
  let cached: Buffer | undefined;
  try {
    cached = fs.readFileSync(cacheFile);
  } catch {
    cached = undefined;
  }
  const script = new vm.Script(Module.wrap(fs.readFileSync(file, 'utf8')), { filename: file, cachedData: cached });
  const mod = new Module(file, module);
  mod.filename = file;
  (script.runInThisContext() as ModuleFunction).call(mod.exports, mod.exports, createRequire(file), mod, file, path.dirname(file));
  mod.loaded = true;
  if (!cached || script.cachedDataRejected) process.once('exit', () => writeCache(cacheFile, script));
  return mod.exports;
}

/**
 * Writes the cache (a temporary file, then a rename) and removes the caches of other builds of
 * the same bundle; a failure only leaves it unwritten.
 */
function writeCache(file: string, script: vm.Script): void {
  const dir = path.dirname(file);
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(tmp, script.createCachedData());
    fs.renameSync(tmp, file);
    const prefix = `${path.basename(file).replace(/-[0-9a-f]+\.bin$/, '')}-`;
    for (const name of fs.readdirSync(dir)) {
      if (name.startsWith(prefix) && name.endsWith('.bin') && name !== path.basename(file)) fs.rmSync(path.join(dir, name), { force: true });
    }
  } catch {
    try {
      fs.rmSync(tmp, { force: true });
    } catch {
      // No folder to have written it in.
    }
  }
}
