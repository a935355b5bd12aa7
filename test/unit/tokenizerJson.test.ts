import assert from 'node:assert/strict';
import { Tokenizer } from '@huggingface/tokenizers';
import { buildUnigramTokenizerJson, SentencePieceVocab, tokenizerJsonText } from '../../src/node/convert/tokenizerJson';

// A miniature of USE-lite's vocab.json: reserved pieces 0-5, then scored pieces, one with the
// `null` score the real file has for ":".
const VOCAB: SentencePieceVocab = [
  ['\uFFFD', 0], ['<s>', 0], ['</s>', 0], ['extra_token_id_1', 0], ['extra_token_id_2', 0], ['extra_token_id_3', 0],
  ['▁', -5], ['▁a', -2], ['a', -3], ['b', -3], ['▁ab', -4], ['<', -6], ['>', -6], ['s', -3], ['/', -6],
  [':', null], ['▁:', -9], ['_', -6], ['e', -6], ['x', -6], ['t', -6], ['r', -6], ['o', -6], ['k', -6],
  ['n', -6], ['i', -6], ['d', -6], ['1', -6],
];

function ids(text: string): number[] {
  return new Tokenizer(buildUnigramTokenizerJson(VOCAB), {}).encode(text).ids;
}

describe('buildUnigramTokenizerJson', () => {
  it('marks the text start and each space with ▁', () => {
    assert.deepEqual(ids('ab'), [10]); // ▁ab
    assert.deepEqual(ids('a b'), [7, 6, 9]); // ▁a ▁ b (there is no "▁b")
  });

  it('keeps a leading space as its own ▁ (Metaspace alone would swallow it)', () => {
    assert.deepEqual(ids(' ab'), [6, 10]);
  });

  it('never produces the reserved pieces 1-5 from literal text', () => {
    const got = ids('<s></s>extra_token_id_1');
    for (const id of [1, 2, 3, 4, 5]) assert.ok(!got.includes(id), `id ${id} in ${got}`);
  });

  it('scores null pieces as 0, as the package does, so ":" beats "▁:" here', () => {
    assert.deepEqual(ids(':'), [6, 15]);
  });

  it('fuses runs of unknown characters into one <unk> (id 0)', () => {
    assert.deepEqual(ids('a中文a'), [7, 0, 8]);
  });

  it('gives no tokens for empty text', () => {
    assert.deepEqual(ids(''), []);
  });

  it('serialises byte-identically for the same vocab', () => {
    assert.equal(tokenizerJsonText(VOCAB), tokenizerJsonText(VOCAB.map(([p, s]) => [p, s])));
    assert.ok(tokenizerJsonText(VOCAB).endsWith('}\n'));
  });
});
