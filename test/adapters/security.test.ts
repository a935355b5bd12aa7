// Security through the whole pipeline: `---js` / `---javascript` / `---coffee` front matter and
// YAML `!!js/*` tags execute nothing (checked in this process and in a spawned CLI, by a global
// and by a marker file the code would write), and indexing and routing with the real default
// model open no socket, resolve no name and start no process.
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { main } from '../../src/cli/main';
import { openLibrary } from '../../src/node/library';

// The module objects themselves: the traps must replace what every caller reaches (a bundled
// `import * as` namespace is a read-only copy).
/* eslint-disable @typescript-eslint/no-require-imports */
const childProcess = require('node:child_process') as typeof import('node:child_process');
const dgram = require('node:dgram') as typeof import('node:dgram');
const dns = require('node:dns') as typeof import('node:dns');
const http = require('node:http') as typeof import('node:http');
const http2 = require('node:http2') as typeof import('node:http2');
const https = require('node:https') as typeof import('node:https');
const net = require('node:net') as typeof import('node:net');
const tls = require('node:tls') as typeof import('node:tls');
/* eslint-enable @typescript-eslint/no-require-imports */

const ROOT = path.resolve(__dirname, '../../..');
const EXAMPLES = path.join(ROOT, 'examples/library');

async function cli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main({ argv, cwd: ROOT, stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), env: {} });
  return { code, stdout, stderr };
}

describe('security', function () {
  this.timeout(120_000);
  let tmp: string;
  before(() => (tmp = mkdtempSync(path.join(tmpdir(), 'sr-sec-'))));
  after(() => rmSync(tmp, { recursive: true, force: true }));

  describe('front matter executes nothing, end to end', () => {
    let lib: string;
    let marker: string;
    const g = globalThis as { __skillRouterPwned?: string };

    before(() => {
      lib = path.join(tmp, 'lib');
      marker = path.join(tmp, 'pwned-marker');
      // Each payload would set the global and write the marker file if it ever ran.
      const payload = (tag: string) =>
        `(globalThis.__skillRouterPwned = '${tag}', require('fs').writeFileSync(${JSON.stringify(marker)}, '${tag}'), 'x')`;
      const files: Record<string, string> = {
        'js/SKILL.md': `---js\n{ name: ${payload('js')}, description: "Extract pdf tables" }\n---\nExtract tables from PDF files.\n`,
        'javascript/SKILL.md': `---javascript\nmodule.exports = { name: ${payload('javascript')} }\n---\nBody.\n`,
        'coffee/SKILL.md': `---coffee\nname: ${payload('coffee')}\n---\nBody.\n`,
        'spaced/SKILL.md': `---js   \n${payload('spaced')}\n---\nBody.\n`,
        'crlf/SKILL.md': `---js\r\n${payload('crlf')}\r\n---\r\nBody.\r\n`,
        'tag/SKILL.md': `---\nname: !!js/function "function () { return ${payload('tag').replace(/"/g, '\\"')} }"\ndescription: x\n---\n`,
        'regexp/SKILL.md': '---\nname: !!js/regexp /a(b+)+$/\ndescription: !!js/undefined ""\n---\n',
        'pdf-extract/SKILL.md': '---\nname: pdf-extract\ndescription: Extract text and tables from PDF files.\n---\n',
      };
      for (const [rel, text] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(lib, rel)), { recursive: true });
        writeFileSync(path.join(lib, rel), text);
      }
    });
    beforeEach(() => delete g.__skillRouterPwned);
    afterEach(() => {
      assert.equal(g.__skillRouterPwned, undefined, 'front matter ran in this process');
      assert.ok(!existsSync(marker), 'front matter wrote a file');
    });

    it('openLibrary + index + route: refused as findings, nothing run', async () => {
      const svc = await openLibrary({ root: lib, noModel: true, cacheDir: path.join(tmp, 'cache') });
      const stats = await svc.index();
      assert.equal(stats.skills, 8);
      const byId = new Map(svc.skills().map((s) => [s.id, s]));
      for (const id of ['js', 'javascript', 'spaced', 'crlf']) {
        const doc = byId.get(id)!;
        assert.deepEqual(doc.frontMatter, {});
        assert.equal(doc.findings[0].code, 'frontmatter.invalid-yaml');
        assert.match(doc.findings[0].message, /front matter in JavaScript is not supported; use YAML/);
      }
      assert.match(byId.get('coffee')!.findings[0].message, /CoffeeScript is not supported/);
      for (const id of ['tag', 'regexp']) {
        assert.equal(byId.get(id)!.findings[0].code, 'frontmatter.invalid-yaml');
        assert.match(byId.get(id)!.findings[0].message, /unknown tag !<tag:yaml\.org,2002:js\/(function|regexp)>/);
      }
      const r = await svc.route('extract tables from a pdf');
      assert.ok(r.candidates.length > 0);
      await svc.dispose();
    });

    it('validate (in process, text and JSON): exit 1 with the refusals', async () => {
      const text = await cli(['validate', lib]);
      assert.equal(text.code, 1);
      assert.match(text.stdout, /^js\/SKILL\.md:1:1: error frontmatter\.invalid-yaml: front matter in JavaScript is not supported; use YAML$/m);
      assert.match(text.stdout, /^javascript\/SKILL\.md:1:1: error frontmatter\.invalid-yaml: .*JavaScript is not supported/m);
      const json = await cli(['validate', lib, '--json']);
      assert.equal(json.code, 1);
      assert.equal(JSON.parse(json.stdout).findings.filter((f: { code: string }) => f.code === 'frontmatter.invalid-yaml').length, 7);
    });

    it('index and validate in a spawned CLI write no file', () => {
      for (const args of [['validate', lib], ['index', '--library', lib, '--no-model', '--cache', path.join(tmp, 'cache2')]]) {
        const run = childProcess.spawnSync(process.execPath, [path.join(ROOT, 'bin/skill-router.js'), ...args], { encoding: 'utf8' });
        assert.ok(run.status === 0 || run.status === 1, run.stderr);
      }
    });
  });

  describe('no network at run time', () => {
    const calls: string[] = [];
    const restores: (() => void)[] = [];

    /** Replaces `obj[key]` with a function that records the call and refuses it. */
    function trap(obj: object, key: string, label: string): void {
      const target = obj as Record<string, unknown>;
      const original = target[key];
      if (typeof original !== 'function') return;
      target[key] = function blocked(...args: unknown[]) {
        calls.push(`${label}(${args.map((a) => (typeof a === 'function' ? 'fn' : JSON.stringify(a) ?? String(a))).join(', ').slice(0, 120)})`);
        throw new Error(`network access attempted during a test: ${label}`);
      };
      restores.push(() => (target[key] = original));
    }

    function sockets(): number {
      try {
        return readdirSync('/proc/self/fd').filter((fd) => {
          try {
            return readlinkSync(`/proc/self/fd/${fd}`).startsWith('socket:');
          } catch {
            return false;
          }
        }).length;
      } catch {
        return 0; // no /proc: the traps still apply
      }
    }

    let socketsBefore = 0;
    before(() => {
      trap(net.Socket.prototype, 'connect', 'net.Socket#connect');
      for (const k of ['connect', 'createConnection']) trap(net, k, `net.${k}`);
      trap(tls, 'connect', 'tls.connect');
      for (const k of ['request', 'get']) {
        trap(http, k, `http.${k}`);
        trap(https, k, `https.${k}`);
      }
      trap(http2, 'connect', 'http2.connect');
      trap(dgram, 'createSocket', 'dgram.createSocket');
      for (const k of ['lookup', 'lookupService', 'resolve', 'resolve4', 'resolve6', 'resolveAny', 'reverse']) {
        trap(dns, k, `dns.${k}`);
        trap(dns.promises, k, `dns.promises.${k}`);
      }
      trap(globalThis, 'fetch', 'fetch');
      for (const k of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) trap(childProcess, k, `child_process.${k}`);
      socketsBefore = sockets();
    });
    after(() => {
      for (const restore of restores.splice(0).reverse()) restore();
    });
    beforeEach(() => (calls.length = 0));

    it('the traps notice a connection, a lookup, a fetch and a process', async () => {
      assert.throws(() => net.connect(80, 'example.com'));
      assert.throws(() => new net.Socket().connect(80, '127.0.0.1'));
      assert.throws(() => https.get('https://example.com'));
      assert.throws(() => dns.lookup('example.com', () => undefined));
      await assert.rejects(async () => fetch('https://example.com'));
      assert.throws(() => childProcess.execFile('curl', ['https://example.com']));
      assert.equal(calls.length, 6, calls.join('\n'));
    });

    it('openLibrary with the default model, index, route, near-duplicates, live update: no call', async () => {
      const svc = await openLibrary({ root: EXAMPLES, cacheDir: path.join(tmp, 'net-cache') });
      const stats = await svc.index();
      assert.ok(stats.model, `the default model loads: ${stats.denseDisabled}`);
      for (const q of ['extract the text and tables from a scanned PDF invoice', '部署到 Kubernetes', 'write a commit message']) {
        const r = await svc.route(q);
        assert.ok(r.candidates[0].scores.dense !== null);
      }
      await svc.pairFindings();
      const doc = svc.skills()[0];
      await svc.updateFile({ id: doc.id, path: doc.path, folderName: doc.id }, new TextEncoder().encode(`---\nname: ${doc.id}\ndescription: Changed.\n---\n`));
      await svc.flushCache();
      await svc.dispose();
      assert.deepEqual(calls, []);
      assert.ok(sockets() <= socketsBefore, 'no socket left open');
    });

    it('the CLI route, index and validate with the default model: no call', async () => {
      for (const argv of [
        ['route', 'resize an image', '--library', EXAMPLES, '--cache', path.join(tmp, 'net-cli')],
        ['index', '--library', EXAMPLES, '--cache', path.join(tmp, 'net-cli')],
        ['validate', EXAMPLES, '--profile', 'claude-code,codex'],
      ]) {
        const run = await cli(argv);
        assert.ok(run.code === 0 || run.code === 1, run.stderr);
      }
      assert.deepEqual(calls, []);
      assert.ok(sockets() <= socketsBefore, 'no socket left open');
    });
  });
});
