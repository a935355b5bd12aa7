/**
 * Request vectors remembered by text: the same request is often embedded again at once (`reach`
 * routes each of its requests in the full text and in a client's listing, then again over
 * listings with words added; the panel re-runs a request as the author edits), and the encoder is
 * most of a request's cost. In-flight requests are shared, the newest `size` kept; passages and
 * batches go straight to the encoder. A shared embedding runs without the caller's token (one
 * text takes milliseconds), so one caller's cancellation never fails another's request; each
 * caller checks its own token when the vector is there.
 */
import type { CancelToken, Embedder } from '../types';
import { throwIfCancelled } from '../types';

export const QUERY_MEMO_SIZE = 2048;

export function memoQueryVectors(embedder: Embedder, size = QUERY_MEMO_SIZE): Embedder {
  const memo = new Map<string, Promise<Float32Array>>();
  return {
    info: embedder.info,
    async embed(texts: string[], kind: 'query' | 'passage', token?: CancelToken): Promise<Float32Array[]> {
      if (kind !== 'query' || texts.length !== 1) return embedder.embed(texts, kind, token);
      const text = texts[0];
      let hit = memo.get(text);
      if (hit) {
        // Newest last: a hit moves to the end.
        memo.delete(text);
        memo.set(text, hit);
      } else {
        hit = embedder.embed([text], 'query').then(([v]) => v);
        memo.set(text, hit);
        // A failed or cancelled embedding is not kept: the next request tries again.
        hit.catch(() => memo.get(text) === hit && memo.delete(text));
        while (memo.size > size) memo.delete(memo.keys().next().value!);
      }
      const vector = await hit;
      throwIfCancelled(token);
      return [vector];
    },
    recycle: () => embedder.recycle?.() ?? Promise.resolve(),
    dispose: () => embedder.dispose?.(),
  };
}
