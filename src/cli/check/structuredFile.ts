/** Reading the YAML or JSON files of `check` (config, routing tests), with errors naming the file and line. */
import { CORE_SCHEMA, load as loadYaml, YAMLException } from 'js-yaml';
import { UsageError } from '../io';

/** Parses YAML with the core schema (no custom types, dates stay strings) or JSON by extension. */
export function parseStructured(text: string, file: string): unknown {
  if (file.toLowerCase().endsWith('.json')) {
    try {
      return JSON.parse(text.replace(/^\uFEFF/, ''));
    } catch (err) {
      throw new UsageError(`${file}: not valid JSON (${(err as Error).message})`);
    }
  }
  try {
    return loadYaml(text, { schema: CORE_SCHEMA, filename: file });
  } catch (err) {
    if (err instanceof YAMLException) {
      // Some errors (several documents in one file) carry no position.
      const at = err.mark ? `:${err.mark.line + 1}:${err.mark.column + 1}` : '';
      throw new UsageError(`${file}${at}: ${err.reason}`);
    }
    throw err;
  }
}

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
export const isPositiveInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0;

/** A non-empty string as a one-item list, or a list of non-empty strings; undefined otherwise. */
export function stringOrList(value: unknown): string[] | undefined {
  if (typeof value === 'string' && value.trim()) return [value];
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' && v.trim())) return value as string[];
  return undefined;
}
