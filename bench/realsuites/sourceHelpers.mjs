/** Helpers the library tables (sources-*.mjs) of convert.mjs share. */
import yaml from 'js-yaml';

/** Query language from its script; Latin text counts as English unless a library overrides it. */
export function scriptLang(text) {
  if (/[\uac00-\ud7af]/.test(text)) return 'ko';
  if (/[\u3040-\u30ff]/.test(text)) return 'ja';
  if (/[\u4e00-\u9fff]/.test(text)) return 'zh';
  if (/[\u0e00-\u0e7f]/.test(text)) return 'th';
  if (/[\u0400-\u04ff]/.test(text)) return 'ru';
  return 'en';
}

export const arr = (x) => (x === undefined || x === null ? [] : Array.isArray(x) ? x : [x]);

/**
 * `evals/trigger_dataset.yaml` (`trigger_evals: [{id, query, expected_skill, expected_not_skills?,
 * tags}]`, the layout buildkite's and switchroom's runners share): a positive for `expected_skill`
 * with `expected_not_skills` as `not`, `tags` kept.
 */
export function triggerDataset(_read, _files, text) {
  const src = 'evals/trigger_dataset.yaml';
  return yaml.load(text(src)).trigger_evals.map((c) => ({ id: c.id, query: c.query, skills: [c.expected_skill], not: arr(c.expected_not_skills), source: src, extra: { tags: c.tags } }));
}
