/** The output formats of `check`, each a function of the report alone. */
import { formatJson } from './format/json';
import { formatJunit } from './format/junit';
import { formatSarif } from './format/sarif';
import { formatText } from './format/text';
import type { CheckReport } from './report';

export const FORMATS = ['text', 'json', 'sarif', 'junit'] as const;
export type Format = (typeof FORMATS)[number];

/** What `--format <name>` prints. */
export const FORMATTERS: Record<Format, (report: CheckReport) => string> = {
  text: formatText,
  json: formatJson,
  sarif: formatSarif,
  junit: formatJunit,
};

export function isFormat(name: string): name is Format {
  return (FORMATS as readonly string[]).includes(name);
}
