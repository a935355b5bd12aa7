import { analyse } from './analyse';
import { cleanMarkdown, splitPassages } from './passages';

/**
 * A short hash of what the analyser makes of a probe text (identifiers, stemming, stop words,
 * Markdown), so a snapshot written by a build that analyses differently is not reused.
 */
export function analysisFingerprint(): string {
  const probe =
    '# Extracting PDFs\nUse `pdfPlumber.extract_tables()` on scanned invoices; the CLI\'s --json flag, C++ and node.js.\n' +
    '- [docs](https://example.com/a_b) <b>running</b> reports, analyses, e-mails 2024-05-01\n```\nconst x = 1;\n```';
  const text = JSON.stringify([analyse(probe), analyse(cleanMarkdown(probe)), splitPassages(probe)]);
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}
