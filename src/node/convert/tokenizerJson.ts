/** `[piece, log-probability]` pairs of a SentencePiece unigram model, as in USE-lite's vocab.json. */
export type SentencePieceVocab = Array<[string, number | null]>;

const METASPACE = '\u2581';

/** Ids below this are `<unk>`, `<s>`, `</s>` and reserved pieces that text must never produce. */
const RESERVED_PIECES = 6;

// Low enough that spelling a reserved piece out of ordinary pieces always scores better.
const UNREACHABLE_SCORE = -1e6;

/**
 * Builds a Hugging Face `tokenizer.json` (Unigram model) that reproduces the TF.js USE-lite
 * tokenizer: NFKC, a "▁" before the text, spaces as "▁", then the best-scoring segmentation of
 * the whole string. No special tokens are added; truncation is the caller's job.
 *
 * Details that keep the ids equal to the package's:
 * - the word-start "▁" comes from a Prepend normalizer, because Metaspace's own prepend skips
 *   text that already starts with a space, and the package does not;
 * - the pre-tokenizer does not split at "▁", since the package segments the text as one string;
 * - the package's trie leaves out pieces 0-5, so their scores are set out of reach here
 *   (piece 0 is `<unk>` and gets the unknown score anyway);
 * - the vocabulary has `null` scores (e.g. ":"); the package adds them as 0, so 0 they become.
 */
export function buildUnigramTokenizerJson(vocab: SentencePieceVocab): Record<string, unknown> {
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [],
    normalizer: {
      type: 'Sequence',
      normalizers: [{ type: 'NFKC' }, { type: 'Prepend', prepend: METASPACE }],
    },
    pre_tokenizer: { type: 'Metaspace', replacement: METASPACE, prepend_scheme: 'never', split: false },
    post_processor: null,
    decoder: { type: 'Metaspace', replacement: METASPACE, prepend_scheme: 'always', split: false },
    model: {
      type: 'Unigram',
      unk_id: 0,
      byte_fallback: false,
      vocab: vocab.map(([piece, score], id) => [
        piece,
        id > 0 && id < RESERVED_PIECES ? UNREACHABLE_SCORE : (score ?? 0),
      ]),
    },
  };
}

/** The tokenizer.json text: stable key order, one line, newline at the end. */
export function tokenizerJsonText(vocab: SentencePieceVocab): string {
  return `${JSON.stringify(buildUnigramTokenizerJson(vocab))}\n`;
}
