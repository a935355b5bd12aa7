/** The server's workspace index with a fake host: cancellation and checks before the index is ready. */
import { strict as assert } from 'node:assert';
import { CancellationTokenSource, type Diagnostic } from 'vscode-languageserver';
import { createSkillService } from '../../src/core/route/skillService';
import type { LiveSkillService } from '../../src/core/service';
import { CancelledError, type CancelToken } from '../../src/core/types';
import type { OpenLibraryOptions } from '../../src/node/library';
import { ServerLogger } from '../../src/server/logger';
import { DEFAULT_SETTINGS } from '../../src/server/settings';
import { cancelOnce, WorkspaceIndex, type IndexHost } from '../../src/server/workspaceIndex';
import type { IndexStatus } from '../../src/shared/protocol';
import { MemoryWorkspace, skill } from '../helpers/fakes';

const ROOT_URI = 'file:///lib';
/** The body two copy-pasted twins share: their requests meet there. */
const CSV_BODY = '# Fixing delimiters\n\n# Dropping duplicate rows\n';

function setup(gate: (opts: OpenLibraryOptions) => Promise<void>, afterIndex?: () => void) {
  const published = new Map<string, { diagnostics: Diagnostic[]; version?: number }>();
  const listeners = new Set<() => void>();
  /** Resolves with the first value `probe` gives, re-checked after every publish. */
  const waitFor = <T>(probe: () => T | undefined) =>
    new Promise<T>((resolve) => {
      const check = () => {
        const v = probe();
        if (v) {
          listeners.delete(check);
          resolve(v);
        }
      };
      listeners.add(check);
      check();
    });
  const statuses: IndexStatus[] = [];
  const progress = new CancellationTokenSource();
  const reports: string[] = [];
  const opened: OpenLibraryOptions[] = [];
  /** The token of every route the engine was asked for. */
  const routed: (CancelToken | undefined)[] = [];
  const files = new Map<string, string | Uint8Array>([
    ['csv-cleaner/SKILL.md', skill('csv-cleaner', 'Clean messy CSV files: fix delimiters and drop duplicate rows.', CSV_BODY)],
    ['csv-tidy/SKILL.md', skill('csv-tidy', 'Clean messy CSV files: fix delimiters and remove duplicate rows.', CSV_BODY)],
  ]);
  const host: IndexHost = {
    async openLibrary(opts): Promise<LiveSkillService> {
      opened.push(opts);
      const svc = createSkillService({ root: opts.root, workspace: new MemoryWorkspace(files), embedder: null, profiles: opts.profiles });
      const index = svc.index.bind(svc);
      svc.index = async (o) => {
        await gate(opts);
        const stats = await index(o);
        afterIndex?.();
        return stats;
      };
      const route = svc.route.bind(svc);
      svc.route = (query, o) => {
        routed.push(o?.token);
        return route(query, o);
      };
      return svc;
    },
    settings: async () => DEFAULT_SETTINGS,
    publish: (uri, diagnostics, version) => {
      published.set(uri, { diagnostics, version });
      for (const l of [...listeners]) l();
    },
    progress: async () => ({
      report: (...args: unknown[]) => void reports.push(args.join(' ')),
      done: () => void reports.push('done'),
      token: progress.token,
    }),
    status: (s) => void statuses.push(s),
    href: (code) => `#${code}`,
    log: new ServerLogger({ error() {}, warn() {}, info() {}, log() {} }),
  };
  const index = new WorkspaceIndex(host, { init: { cacheDir: '/cache' }, debounceMs: 0, semanticDelayMs: 0 });
  return { index, published, statuses, progress, reports, opened, routed, waitFor };
}

describe('WorkspaceIndex', () => {
  it('cancels a token source once, however often it is asked to', () => {
    const source = new CancellationTokenSource();
    source.cancel(); // cancelled before anyone read the token: a second cancel() would throw
    assert.doesNotThrow(() => cancelOnce(source));
    assert.doesNotThrow(() => cancelOnce(undefined));
    const fresh = new CancellationTokenSource();
    cancelOnce(fresh);
    assert.equal(fresh.token.isCancellationRequested, true);
  });

  it('survives a burst of edits to one document and publishes the last version', async () => {
    const t = setup(async () => undefined);
    await t.index.changeFolders([ROOT_URI], []);
    const uri = 'file:///lib/csv-tidy/SKILL.md';
    // The pass after the index has found the pair.
    await t.waitFor(() => t.published.get(uri)?.diagnostics.some((d) => d.code === 'skill.near-duplicate'));
    for (let v = 2; v <= 30; v++) t.index.documentChanged(uri, skill('csv-tidy', `Plot charts, version ${v}.`), v);
    // First the skill's own checks (with its last known pairs), then the cross-skill checks.
    const own = await t.waitFor(() => (t.published.get(uri)?.version === 30 ? t.published.get(uri) : undefined));
    assert.deepEqual(own.diagnostics.map((d) => d.code), ['skill.near-duplicate']);
    await t.waitFor(() => t.published.get(uri)?.version === 30 && t.published.get(uri)!.diagnostics.length === 0);
    await t.waitFor(() => t.published.get('file:///lib/csv-cleaner/SKILL.md')?.diagnostics.length === 0);
    await t.index.dispose();
  });

  it('cancelling the progress report stops indexing; open files still get front-matter checks', async () => {
    let release!: () => void;
    const t = setup(() => new Promise<void>((r) => (release = r)));
    const done = t.index.changeFolders([ROOT_URI], []);
    await new Promise((r) => setImmediate(r));
    assert.equal(t.index.status().state, 'indexing');
    t.index.documentChanged('file:///lib/csv-tidy/SKILL.md', '---\nname: CSV\ndescription: d\n---\n', 3);
    const standalone = await t.waitFor(() => t.published.get('file:///lib/csv-tidy/SKILL.md'));
    assert.equal(standalone.version, 3);
    assert.ok(standalone.diagnostics.some((d) => d.code === 'frontmatter.name-case'), 'validation while indexing');
    t.progress.cancel();
    release();
    await done;
    const s = t.index.status();
    assert.equal(s.state, 'cancelled');
    assert.equal(s.folders[0].state, 'cancelled');
    assert.equal(t.reports[t.reports.length - 1], 'done');
    assert.match(t.opened[0].cacheDir!, /^\/cache\/index\/lib-[0-9a-f]{12}$/);
  });

  it('a Cancel that arrives as the engine finishes still leaves the folder not indexed, and a reindex brings it back', async () => {
    let cancelNext = true;
    const t = setup(async () => undefined, () => {
      if (cancelNext) t.index.cancelIndexing();
      cancelNext = false;
    });
    await t.index.changeFolders([ROOT_URI], []);
    assert.equal(t.index.status().state, 'cancelled');
    assert.equal(t.index.status().folders[0].state, 'cancelled');
    await assert.rejects(t.index.route({ query: 'clean a csv file' }), /cannot route yet: the skill index is cancelled/);
    await t.index.reindex();
    assert.equal(t.index.status().state, 'ready');
    assert.equal(t.index.status().skills, 2);
    await t.index.dispose();
  });

  it('a second reindex supersedes the first; the last one publishes', async () => {
    const t = setup(async () => undefined);
    await t.index.changeFolders([ROOT_URI], []);
    assert.equal(t.index.status().state, 'ready');
    const first = t.index.reindex();
    const second = t.index.reindex();
    await Promise.all([first, second]);
    assert.equal(t.index.status().state, 'ready');
    assert.equal(t.index.status().skills, 2);
    const tidy = await t.waitFor(() => t.published.get('file:///lib/csv-tidy/SKILL.md')?.diagnostics.find((d) => d.code === 'skill.near-duplicate'));
    assert.match(tidy.message, /csv-cleaner/);
    await t.index.dispose();
  });

  it('route hands the request token to the engine; once cancelled the request rejects before the engine ranks', async () => {
    const t = setup(async () => undefined);
    await t.index.changeFolders([ROOT_URI], []);
    const token = { isCancellationRequested: false };
    const r = await t.index.route({ query: 'clean messy csv files', k: 1 }, token);
    assert.equal(r.results.length, 1);
    assert.deepEqual(t.routed, [token]);
    token.isCancellationRequested = true;
    await assert.rejects(t.index.route({ query: 'clean messy csv files' }, token), CancelledError);
    assert.equal(t.routed.length, 1, 'a request cancelled while queued never reaches the engine');
    await t.index.dispose();
  });
});
