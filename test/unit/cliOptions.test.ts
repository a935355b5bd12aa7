import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { version } from '../../package.json';
import { main } from '../../src/cli/main';
import { ENGINE_OPTIONS } from '../../src/cli/options';
import type { RouteResult, SkillService } from '../../src/core/service';
import type { SkillDoc } from '../../src/core/types';
import type { OpenLibraryOptions } from '../../src/node/library';

const DOC: SkillDoc = {
  id: 'pdf',
  path: 'pdf/SKILL.md',
  name: 'pdf',
  description: 'extract tables from pdf files',
  body: '',
  frontMatter: {},
  keyRanges: {},
  bodyStartLine: 4,
  lang: 'en',
  hash: 'pdf',
  findings: [],
};

/** A one-skill library that ranks it first for every request. */
function fakeService(root: string): SkillService {
  return {
    root,
    async index() {
      return { skills: 1, cached: 0, embedded: 0, failed: 0, ms: 1, model: null };
    },
    pairFindings: async () => [],
    async route(query) {
      const result: RouteResult = {
        query,
        candidates: [
          {
            skillId: DOC.id,
            name: DOC.name,
            path: DOC.path,
            description: DOC.description,
            rank: 1,
            scores: { dense: null, lexical: 1, fused: 1, rerank: null, final: 1 },
            passage: null,
          },
        ],
        timings: { embedMs: 0, denseMs: 0, lexicalMs: 0, fuseMs: 0, rerankMs: 0, totalMs: 0 },
        dense: { disabled: 'fake' },
      };
      return result;
    },
    skills: () => [DOC],
    failures: () => [],
    async dispose() {},
  };
}

describe('cli: one table of engine flags for every command', () => {
  let dir: string;
  let opened: OpenLibraryOptions[];
  const deps = {
    openLibrary: async (opts: OpenLibraryOptions) => {
      opened.push(opts);
      return fakeService(opts.root);
    },
  };
  const run = async (...argv: string[]) => {
    const out = { stdout: '', stderr: '' };
    const code = await main({ argv, cwd: dir, stdout: (s) => void (out.stdout += s), stderr: (s) => void (out.stderr += s), env: {} }, deps);
    return { code, ...out };
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sr-cli-options-'));
    opened = [];
    mkdirSync(join(dir, 'lib/pdf'), { recursive: true });
    writeFileSync(join(dir, 'lib/pdf/SKILL.md'), '---\nname: pdf\ndescription: extract tables from pdf files\n---\n');
    writeFileSync(join(dir, 'q.jsonl'), '{"query": "pdf tables", "skill_ids": ["pdf"]}\n');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Each command with the arguments it needs besides the engine flags. */
  const COMMANDS: [string, string[]][] = [
    ['route', ['pdf tables', '--library', 'lib']],
    ['index', ['--library', 'lib']],
    ['validate', ['lib']],
    ['eval', ['--library', 'lib', '--queries', 'q.jsonl']],
    ['check', ['--library', 'lib']],
  ];

  it('route --no-bridge opens the library without the bridge (it was an unknown option)', async () => {
    const r = await run('route', 'pdf tables', '--library', 'lib', '--no-bridge');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(opened[0].noBridge, true);
    assert.match(r.stdout, /pdf {2}\(pdf\)/);
  });

  it('eval --no-bridge --model keeps the model (the bridge flag dropped it)', async () => {
    const r = await run('eval', '--library', 'lib', '--queries', 'q.jsonl', '--quiet', '--no-bridge', '--model', 'models/e5');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(opened[0].noBridge, true);
    assert.equal(opened[0].modelDir, join(dir, 'models/e5'));
  });

  it('every command takes every engine flag and maps it the same way', async () => {
    const flags = ['--no-bridge', '--reranker', 'rr', '--cache', 'c', '--device', 'cuda', '--threads', '3', '--profile', 'spec,codex', '--profile', 'codex', '--quiet'];
    for (const name of Object.keys(ENGINE_OPTIONS)) {
      assert.ok(flags.includes(`--${name}`) || ['model', 'no-model', 'adapter', 'no-adapter', 'verbose'].includes(name), `--${name} is exercised`);
    }
    for (const [command, args] of COMMANDS) {
      opened = [];
      const r = await run(command, ...args, ...flags);
      assert.equal(r.code, 0, `${command}: ${r.stderr}`);
      const o = opened[0];
      assert.deepEqual(
        [o.root, o.noBridge, o.rerankerDir, o.cacheDir, o.device, o.threads, o.profiles],
        [join(dir, 'lib'), true, join(dir, 'rr'), join(dir, 'c'), 'cuda', 3, ['spec', 'codex']],
        command,
      );
      for (const model of [['--model', 'm'], ['--no-model'], ['--verbose']]) {
        opened = [];
        assert.equal((await run(command, ...args, '--quiet', ...model)).code, 0, `${command} ${model[0]}`);
      }
      // --adapter names a folder; --no-adapter is the encoder's own request vectors; neither leaves it to the model folder.
      for (const [adapter, want] of [[['--adapter', 'qa'], join(dir, 'qa')], [['--no-adapter'], null], [[], undefined]] as const) {
        opened = [];
        assert.equal((await run(command, ...args, '--quiet', ...adapter)).code, 0, `${command} ${adapter[0]}`);
        assert.equal(opened[0].adapterDir, want, `${command} ${adapter[0]}`);
      }
    }
  });

  it('every command rejects bad engine flags with the same message', async () => {
    const bad: [string[], RegExp][] = [
      [['--device', 'tpu'], /unknown device "tpu"; use cpu, cuda, dml or coreml/],
      [['--threads', '0'], /--threads must be a positive integer, got "0"/],
      [['--profile', 'claude'], /unknown profile "claude"/],
      [['--model', 'm', '--no-model'], /--model and --no-model exclude each other/],
      [['--adapter', 'a', '--no-adapter'], /--adapter and --no-adapter exclude each other/],
    ];
    for (const [command, args] of COMMANDS) {
      for (const [flags, message] of bad) {
        const r = await run(command, ...args, '--quiet', ...flags);
        assert.equal(r.code, 2, `${command} ${flags.join(' ')}`);
        assert.match(r.stderr, message, `${command} ${flags.join(' ')}`);
      }
    }
    assert.equal(opened.length, 0);
  });

  it('--version prints the version of package.json', async () => {
    const r = await run('--version');
    assert.equal(r.stdout, `${version}\n`);
  });
});
