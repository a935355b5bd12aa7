/**
 * The manifest that describes a model folder (Hugging Face layout: `tokenizer.json`,
 * `onnx/model*.onnx`, `config.json`). It lives in the folder as `manifest.json`.
 */
export interface ModelManifest {
  /** Stable id; keys index caches. Change it when the weights change. */
  id: string;
  kind: 'bi-encoder' | 'cross-encoder';
  /** Path of the ONNX file, relative to the folder. */
  onnx: string;
  /** Path of the Hugging Face `tokenizer.json`, relative to the folder. */
  tokenizer: string;
  /** Output vector size (bi-encoders). */
  dims?: number;
  /** Tokens per text (or per pair); longer input is truncated. */
  maxTokens: number;
  /**
   * How token states become one vector: `none` when the graph already outputs sentence
   * vectors (the converted USE-lite), else `mean`, `cls` or `last-token`.
   */
  pooling: 'none' | 'mean' | 'cls' | 'last-token';
  /** L2-normalise the output vectors (default true). */
  normalize?: boolean;
  /** Instruction prefixes, e.g. e5's `query: ` / `passage: `. */
  queryPrefix?: string;
  passagePrefix?: string;
  /** Graph input names; `typeIds` only when the model takes token_type_ids. */
  inputs?: { ids?: string; mask?: string; typeIds?: string };
  /** Graph output to read (`embeddings`, `last_hidden_state`, `logits`...). */
  output?: string;
  /** Padding id (default from tokenizer.json's padding, else 0). */
  padTokenId?: number;
  /**
   * Languages the model reads, e.g. `["en"]` or `["en", "zh"]` for multilingual models (e5,
   * bge-m3). A model that does not list `zh` gets Chinese requests and skills as their English
   * bridge (CC-CEDICT); one that does reads them as written. Default `["en"]`.
   */
  languages?: string[];
  /** Collapse whitespace runs to one space before tokenizing (USE-lite maps "\n" to unknown). */
  collapseWhitespace?: boolean;
  /** sha256 (hex) of files in the folder, checked at load. */
  sha256?: Record<string, string>;
  license?: string;
  source?: string;
}
