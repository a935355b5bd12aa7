// The MCP tools while the library's first index is still embedding: the SDK's client against the
// server in this process (an in-memory transport), over an engine whose encoder holds every
// passage batch until the test lets it go. The first search answers at once, by words, marked so;
// the search after the index is done is the full ranking; a request with a progress token gets
// `notifications/progress` on the way; list_skills answers meanwhile too.
import * as assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { createSkillService } from '../../src/core/route/skillService';
import { SILENT_LOGGER } from '../../src/core/types';
import { LiveLibrary } from '../../src/cli/liveLibrary';
import { createSkillRouterServer } from '../../src/cli/mcpTools';
import { GatedEmbedder, MemoryWorkspace, skill } from '../helpers/fakes';

const REQUEST = 'extract the tables from a scanned PDF invoice';

function files(): Map<string, string> {
  return new Map([
    ['pdf-extract/SKILL.md', skill('pdf-extract', 'Extract text and tables from PDF files, including scanned invoices.', '# Usage\nRun OCR on scanned pages.')],
    ['docx-edit/SKILL.md', skill('docx-edit', 'Create and edit Word documents with tracked changes.')],
    ['k8s-deploy/SKILL.md', skill('k8s-deploy', 'Deploy services to a Kubernetes cluster with Helm charts.')],
  ]);
}

/** Rejects when `p` has not settled within `ms` (the old server waited for the vectors: for ever here). */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms)));
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

interface Structured {
  set: { id: string }[];
  match: string;
  wordsOnly?: { embedded: number; total: number };
}

describe('cli: MCP tools while the vectors are built (words first)', function () {
  this.timeout(30_000);
  let embedder: GatedEmbedder;
  let library: LiveLibrary;
  let client: Client;

  beforeEach(async () => {
    embedder = new GatedEmbedder();
    const service = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(files()), embedder });
    library = new LiveLibrary(service, { logger: SILENT_LOGGER });
    const server = createSkillRouterServer(library, { name: 'skill-router', version: 'test' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(clientSide);
  });

  afterEach(async () => {
    embedder.open();
    await client.close();
    await library.close();
  });

  it('answers the first search by words, marked, while the encoder is busy; the search after the index is the full one', async () => {
    const first = (await within(client.callTool({ name: 'search_skills', arguments: { request: REQUEST } }), 10_000, 'the first search')) as CallToolResult;
    assert.ok(!first.isError);
    assert.ok(embedder.waiting > 0, 'the vectors were still being built');
    const early = first.structuredContent as unknown as Structured;
    assert.equal(early.set[0].id, 'pdf-extract');
    assert.ok(early.wordsOnly, 'the answer says it is words-only');
    assert.equal(early.wordsOnly.embedded, 0);
    assert.ok(early.wordsOnly.total > 0);
    const text = (first.content[0] as { text: string }).text;
    assert.match(text.split('\n')[0], /^\(words-only answer: the skill vectors are being built \(0 of \d+ texts embedded\); search again/);

    embedder.open();
    await library.ready;
    const later = (await client.callTool({ name: 'search_skills', arguments: { request: REQUEST } })) as CallToolResult;
    const full = later.structuredContent as unknown as Structured;
    assert.equal(full.wordsOnly, undefined);
    assert.doesNotMatch((later.content[0] as { text: string }).text, /words-only/);
    assert.equal(full.set[0].id, 'pdf-extract');
  });

  it('sends progress notifications to a request with a progress token, none once the index is done', async () => {
    const steps: Progress[] = [];
    const r = (await within(
      client.callTool({ name: 'search_skills', arguments: { request: REQUEST } }, undefined, { onprogress: (p) => void steps.push(p) }),
      10_000,
      'the search with a progress token',
    )) as CallToolResult;
    assert.ok(!r.isError);
    assert.ok(steps.length >= 2, `progress steps: ${JSON.stringify(steps)}`);
    for (let i = 1; i < steps.length; i++) assert.ok(steps[i].progress > steps[i - 1].progress, 'progress increases');
    assert.match(steps[steps.length - 1].message ?? '', /^answered by words: the skill vectors are being built \(0 of \d+ texts embedded\)$/);

    embedder.open();
    await library.ready;
    const after: Progress[] = [];
    await client.callTool({ name: 'search_skills', arguments: { request: REQUEST } }, undefined, { onprogress: (p) => void after.push(p) });
    assert.deepEqual(after, []);
  });

  it('answers in full, not by words, when every vector comes from the cache', async () => {
    const cache = new Map<string, Float32Array[]>();
    const vectorCache = { get: (k: string) => cache.get(k), set: (k: string, v: Float32Array[]) => void cache.set(k, v), flush: async () => undefined };
    const warm = async (gated: GatedEmbedder) => {
      const lib = new LiveLibrary(createSkillService({ root: '/lib', workspace: new MemoryWorkspace(files()), embedder: gated, cache: vectorCache }), { logger: SILENT_LOGGER });
      const server = createSkillRouterServer(lib, { name: 'skill-router', version: 'test' });
      const [c, s] = InMemoryTransport.createLinkedPair();
      await server.connect(s);
      const warmClient = new Client({ name: 'test', version: '1.0.0' });
      await warmClient.connect(c);
      return { lib, warmClient };
    };
    const filling = new GatedEmbedder();
    filling.open();
    const first = await warm(filling);
    await first.lib.ready;
    await first.warmClient.close();
    await first.lib.close();
    assert.ok(cache.size > 0, 'the vectors are cached');

    // The encoder never lets a passage batch through: none is asked for.
    const second = await warm(new GatedEmbedder());
    const r = (await within(second.warmClient.callTool({ name: 'search_skills', arguments: { request: REQUEST } }), 10_000, 'the search')) as CallToolResult;
    assert.equal((r.structuredContent as unknown as Structured).wordsOnly, undefined);
    await second.warmClient.close();
    await second.lib.close();
  });

  it('lists the skills while the vectors are built', async () => {
    const r = (await within(client.callTool({ name: 'list_skills', arguments: {} }), 10_000, 'list_skills')) as CallToolResult;
    assert.ok(embedder.waiting > 0);
    assert.deepEqual((r.structuredContent as { skills: { id: string }[] }).skills.map((s) => s.id), ['docx-edit', 'k8s-deploy', 'pdf-extract']);
  });
});
