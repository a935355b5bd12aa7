import { strict as assert } from 'node:assert';
import { memoQueryVectors } from '../../src/core/route/queryMemo';
import { CancelledError, type Embedder } from '../../src/core/types';

/** An encoder that counts what it embeds and can be told to fail. */
function counting() {
  const calls: string[] = [];
  let failNext = false;
  const embedder: Embedder = {
    info: { id: 'count@1', dims: 1, maxTokens: 8 },
    async embed(texts, kind) {
      calls.push(...texts.map((t) => `${kind}:${t}`));
      await new Promise((r) => setTimeout(r, 5));
      if (failNext) {
        failNext = false;
        throw new Error('worker died');
      }
      return texts.map((t) => Float32Array.of(t.length));
    },
  };
  return { embedder, calls, failOnce: () => (failNext = true) };
}

describe('request vectors remembered by text', () => {
  it('embeds a request once for concurrent and later asks; passages and batches always reach the encoder', async () => {
    const c = counting();
    const memo = memoQueryVectors(c.embedder, 4);
    const [a, b] = await Promise.all([memo.embed(['pdf tables'], 'query'), memo.embed(['pdf tables'], 'query')]);
    assert.deepEqual([...a[0]], [10]);
    assert.equal(a[0], b[0]);
    await memo.embed(['pdf tables'], 'query');
    await memo.embed(['pdf tables'], 'passage');
    await memo.embed(['x', 'y'], 'query');
    assert.deepEqual(c.calls, ['query:pdf tables', 'passage:pdf tables', 'query:x', 'query:y']);
  });

  it('keeps the newest few: the least recently asked goes first', async () => {
    const c = counting();
    const memo = memoQueryVectors(c.embedder, 2);
    for (const q of ['a', 'b', 'a', 'c', 'a', 'b']) await memo.embed([q], 'query');
    // a b (a hit, moves to the end) c (evicts b) a (hit) b (again: it was evicted)
    assert.deepEqual(c.calls, ['query:a', 'query:b', 'query:c', 'query:b']);
  });

  it('does not keep a failure, and one caller\'s cancellation does not fail another asking the same', async () => {
    const c = counting();
    const memo = memoQueryVectors(c.embedder);
    c.failOnce();
    await assert.rejects(memo.embed(['q'], 'query'), /worker died/);
    assert.deepEqual([...(await memo.embed(['q'], 'query'))[0]], [1]);
    const cancelled = { isCancellationRequested: false };
    const first = memo.embed(['r'], 'query', cancelled);
    const second = memo.embed(['r'], 'query');
    cancelled.isCancellationRequested = true;
    await assert.rejects(first, CancelledError);
    assert.deepEqual([...(await second)[0]], [1]);
    assert.deepEqual(c.calls, ['query:q', 'query:q', 'query:r']);
  });
});
