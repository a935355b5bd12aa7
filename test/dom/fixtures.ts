/** Messages the DOM tests deliver to the panel: an illustrative routing over examples/library. */
import type { HostMessage, PanelListing, PanelResult, PanelSet, RouteSummary } from '../../src/shared/webviewProtocol';

export const WS = 'file:///work/skills';
export const uriOf = (id: string) => `${WS}/${encodeURIComponent(id)}/SKILL.md`;

export const QUERY = 'extract the tables from this scanned PDF invoice and chart the monthly totals';

export const RESULTS: PanelResult[] = [
  {
    rank: 1,
    uri: uriOf('pdf-extract'),
    skillId: 'pdf-extract',
    name: 'pdf-extract',
    folder: 'pdf-extract',
    description:
      'Extract text, tables and form fields from PDF files, including scanned invoices and receipts (OCR). Use when the user wants the contents of a PDF as text, CSV or JSON.',
    scores: { dense: 0.812, lexical: 1, fused: 1, rerank: 0.947, final: 0.947 },
    passage: {
      field: 'body',
      heading: 'Scanned documents',
      line: 17,
      text: 'Scanned invoices have no text layer: run OCR first, then extract the tables page by page.',
      matchedTerms: ['Scanned', 'invoices', 'extract', 'tables'],
    },
  },
  {
    rank: 2,
    uri: uriOf('数据可视化'),
    skillId: '数据可视化',
    name: '数据可视化',
    folder: '数据可视化',
    description: '用 Python（matplotlib、seaborn）或 ECharts 绘制数据图表：折线图、柱状图、热力图，并导出为 PNG 或 HTML。',
    scores: { dense: 0.604, lexical: 0.231, fused: 0.468, rerank: 0.611, final: 0.611 },
    passage: {
      field: 'description',
      line: 2,
      text: '用 Python（matplotlib、seaborn）或 ECharts 绘制数据图表：折线图、柱状图、热力图，并导出为 PNG 或 HTML。',
      matchedTerms: ['图表'],
    },
  },
  {
    rank: 3,
    uri: uriOf('pdf-build'),
    skillId: 'pdf-build',
    name: 'pdf-build',
    folder: 'pdf-build',
    description:
      'Create PDF documents from HTML or Markdown, merge and split PDFs, add watermarks and page numbers. Use when the user wants a new or modified PDF file.',
    scores: { dense: 0.655, lexical: 0.412, fused: 0.52, rerank: 0.208, final: 0.208 },
    passage: {
      field: 'description',
      line: 2,
      text: 'Create PDF documents from HTML or Markdown, merge and split PDFs, add watermarks and page numbers.',
      matchedTerms: ['PDF', 'PDFs'],
    },
  },
  {
    rank: 4,
    uri: uriOf('docx-edit'),
    skillId: 'docx-edit',
    name: 'docx-edit',
    folder: 'docx-edit',
    description:
      'Create and edit Word (.docx) documents: headings, styles, tables, tracked changes and comments. Use for any request about Word files.',
    scores: { dense: 0.41, lexical: 0.188, fused: 0.29, rerank: 0.052, final: 0.052 },
    passage: {
      field: 'body',
      heading: 'Tables',
      line: 24,
      text: 'Insert tables with a header row; keep column widths in the document grid.',
      matchedTerms: ['tables'],
    },
  },
];

export const SET: PanelSet = {
  skills: ['pdf-extract', '数据可视化'],
  skipped: [
    {
      skillId: 'pdf-build',
      conflictsWith: 'pdf-extract',
      reason: 'function_redundant',
      explanation: 'both take PDF requests; this one builds PDFs, the request reads one',
    },
  ],
};

/** The results as Claude Code lists them: the second lower there by words only its body has, the third's description dropped. */
export const LISTING: PanelListing = {
  client: 'claude-code',
  label: 'Claude Code',
  ranks: [
    { uri: uriOf('pdf-extract'), rank: 1, depth: 4, listedChars: 171, fullChars: 171, cut: false, dropped: false, omitted: false, bodyOnly: [] },
    { uri: uriOf('数据可视化'), rank: 7, depth: 20, listedChars: 60, fullChars: 60, cut: false, dropped: false, omitted: false, bodyOnly: ['chart', 'monthly'] },
    { uri: uriOf('pdf-build'), rank: null, depth: 20, listedChars: 0, fullChars: 150, cut: false, dropped: true, omitted: false, why: "the listing is over Claude Code's budget", bodyOnly: [] },
  ],
};

export function summary(requestId: number, over: Partial<RouteSummary> = {}): RouteSummary {
  return {
    requestId,
    query: QUERY,
    k: 10,
    results: RESULTS,
    dense: { model: 'use-lite-en@1' },
    totalMs: 41.7,
    ...over,
  };
}

export function resultsMessage(requestId: number, over: Partial<Extract<HostMessage, { type: 'results' }>> = {}): HostMessage {
  return { type: 'results', active: null, ...summary(requestId), ...over };
}

export const INIT: HostMessage = { type: 'init', profiles: ['claude-code'], k: 10, restore: null, active: null };

/** A description of `n` characters (words, so it reads like one). */
export function longDescription(n: number): string {
  const words = 'Extract structured data from invoices receipts and statements with layout aware OCR ';
  let s = '';
  while (s.length < n) s += words;
  return s.slice(0, n);
}
