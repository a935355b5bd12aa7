// The per-file checks issue 47 added (a byte order mark, the body's size, a download piped into a
// shell, an empty `metadata:`) and the library's duplicate names: what `parseSkill` and
// `SameNames` report, which is what the editor and `check` both report.
import { strict as assert } from 'node:assert';
import type { Diagnostic, TextEdit } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { SameNames } from '../../src/core/analysis/sameNames';
import { estimateTokens, validateBody } from '../../src/core/parse/bodyChecks';
import { decodeSkillBytes, parseSkill } from '../../src/core/parse/skillDoc';
import { applyFindingPolicy, DEFAULT_FINDING_POLICY } from '../../src/core/policy/findingPolicy';
import { codeActions } from '../../src/server/codeActions';
import { skillDiagnostics, type DiagnosticContext } from '../../src/server/diagnostics';
import { DEFAULT_SETTINGS } from '../../src/server/settings';
import { DIAGNOSTIC_SOURCE } from '../../src/shared/protocol';

const parse = (text: string, folder = 'pdf-extract') => parseSkill({ id: folder, path: `${folder}/SKILL.md`, folderName: folder }, text, ['spec']);
const codes = (text: string, folder = 'pdf-extract') => parse(text, folder).findings.map((f) => f.code);
const SKILL = '---\nname: pdf-extract\ndescription: Extract text and tables from PDF files.\n---\n\n# PDF extract\n';
const withBody = (body: string) => `${SKILL}${body}`;
const shellLines = (body: string) => validateBody(body, 0).filter((f) => f.code === 'body.pipe-to-shell').map((f) => f.range.start.line);

describe('file.bom', () => {
  it('reports a byte order mark before `---` as an error and still reads the front matter', () => {
    const doc = parse(`\uFEFF${SKILL}`);
    assert.deepEqual(doc.findings.map((f) => [f.code, f.severity]), [['file.bom', 'error']]);
    assert.equal(doc.name, 'pdf-extract');
    assert.equal(doc.description, 'Extract text and tables from PDF files.');
    assert.deepEqual(codes(SKILL), [], 'no mark, no finding');
  });

  it('sees the mark in the bytes, which the decoder drops from the text', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(SKILL)]);
    const decoded = decodeSkillBytes(bytes);
    assert.equal(decoded.bom, true);
    assert.equal(decoded.text.charCodeAt(0), '-'.charCodeAt(0));
    assert.deepEqual(parseSkill({ id: 'pdf-extract', path: 'pdf-extract/SKILL.md', folderName: 'pdf-extract' }, decoded.text, ['spec'], decoded).findings.map((f) => f.code), ['file.bom']);
    assert.equal(decodeSkillBytes(new TextEncoder().encode(SKILL)).bom, false);
  });

  it('offers a quick fix that removes the mark, after which the file checks clean', () => {
    const text = `\uFEFF${SKILL.replace('name: pdf-extract', 'name: pdf-extract\ncolour: red')}`;
    const before = parse(text).findings;
    const diagnostics: Diagnostic[] = before.map((f) => ({ range: f.range, message: f.message, code: f.code, source: DIAGNOSTIC_SOURCE }));
    const fix = codeActions({ uri: 'file:///lib/pdf-extract/SKILL.md', text, range: before[0].range, diagnostics, folderName: 'pdf-extract', annotations: false })
      .find((a) => a.diagnostics?.some((d) => d.code === 'file.bom'));
    assert.ok(fix?.edit?.changes, 'a quick fix on file.bom');
    const fixed = TextDocument.applyEdits(TextDocument.create('file:///lib/pdf-extract/SKILL.md', 'markdown', 1, text), fix.edit.changes['file:///lib/pdf-extract/SKILL.md'] as TextEdit[]);
    assert.equal(fixed, text.slice(1));
    assert.deepEqual(codes(fixed), before.map((f) => f.code).filter((c) => c !== 'file.bom'), 'the other findings stay');
  });
});

describe('frontmatter.metadata-type', () => {
  it('accepts an empty `metadata:` as the reference validator does, and still refuses text or a list', () => {
    assert.deepEqual(codes(SKILL.replace('---\n\n', 'metadata:\n---\n\n')), []);
    assert.deepEqual(codes(SKILL.replace('---\n\n', 'metadata: ~\n---\n\n')), []);
    assert.deepEqual(codes(SKILL.replace('---\n\n', 'metadata: text\n---\n\n')), ['frontmatter.metadata-type']);
    assert.deepEqual(codes(SKILL.replace('---\n\n', 'metadata: [a, b]\n---\n\n')), ['frontmatter.metadata-type']);
  });
});

describe('body.too-long', () => {
  it('reports a SKILL.md over 500 lines at the first line past the limit, with the count', () => {
    const fileLines = (n: number) => withBody(Array.from({ length: n - 6 }, (_, i) => `step ${i}`).join('\n') + '\n');
    assert.deepEqual(codes(fileLines(500)), []);
    const long = parse(fileLines(501)).findings;
    assert.deepEqual(long.map((f) => [f.code, f.severity]), [['body.too-long', 'warning']]);
    assert.equal(long[0].range.start.line, 500);
    assert.match(long[0].message, /^SKILL\.md is 501 lines and its body about [\d,]+ tokens: the spec recommends under 500 lines/);
  });

  it('reports a body over about 5000 tokens in few lines, where it passes the budget', () => {
    const para = 'word '.repeat(780); // 3900 characters: 975 tokens
    const findings = parse(withBody(`${para}\n`.repeat(6))).findings;
    assert.deepEqual(findings.map((f) => f.code), ['body.too-long']);
    assert.equal(findings[0].range.start.line, 4 + 2 + 5, 'the sixth paragraph passes 5000');
    assert.match(findings[0].message, /SKILL\.md is 12 lines and its body about 5,85\d tokens/);
    assert.deepEqual(codes(withBody(`${para}\n`.repeat(5))), []);
  });

  it('counts a CJK character as a token', () => {
    assert.equal(estimateTokens('数据可视化'), 5);
    assert.equal(estimateTokens('abcdefgh'), 2);
    assert.deepEqual(codes(withBody(`${'数据可视化'.repeat(1001)}\n`)), ['body.too-long']);
  });
});

describe('body.pipe-to-shell', () => {
  const fenced = (cmd: string, lang = 'bash') => `Install:\n\n\`\`\`${lang}\n${cmd}\n\`\`\`\n`;

  it('reports install lines that pipe a download into a shell, in code', () => {
    for (const cmd of [
      'curl -fsSL https://example.com/install.sh | sh',
      'curl -sSL https://example.com/install.sh | sudo bash',
      'curl -sSL https://example.com/install.sh | sudo -E bash -s -- --yes',
      'wget -qO- https://example.com/install.sh | bash',
      'curl -L https://example.com/get | tee install.log | sh',
      'iwr https://example.com/install.ps1 | iex',
      'irm https://example.com/install.ps1 | Invoke-Expression',
      'iex ((New-Object System.Net.WebClient).DownloadString(\'https://example.com/install.ps1\'))',
      'sh -c "$(curl -fsSL https://example.com/install.sh)"',
      'bash <(curl -s https://example.com/install.sh)',
      'curl -sSL https://install.python-poetry.org | python3 -',
    ]) {
      assert.deepEqual(shellLines(fenced(cmd)), [3], cmd);
    }
    assert.deepEqual(shellLines(fenced('curl -fsSL \\\n  https://example.com/install.sh \\\n  | bash')), [3], 'a command continued over lines');
    assert.deepEqual(shellLines('Run:\n\n$ curl -fsSL https://example.com/install.sh | bash\n'), [2], 'a `$ ` shell line');
    assert.deepEqual(shellLines('Install it with `curl -fsSL https://example.com/i.sh | bash`, then restart.\n'), [0], 'an inline code span');
    assert.deepEqual(shellLines('Install uv (`curl -LsSf https://astral.sh/uv/install.sh | sh`). Do NOT fall back to pip.\n'), [0], 'a warning in the next sentence is about something else');
    assert.deepEqual(shellLines('```powershell\npowershell -c "irm bun.sh/install.ps1 | iex"\n```\n'), [1], 'a host and path without a scheme');
    const f = parse(withBody(fenced('curl -fsSL https://example.com/install.sh | sh'))).findings;
    assert.deepEqual(f.map((x) => [x.code, x.severity, x.range.start.line]), [['body.pipe-to-shell', 'info', 9]]);
    assert.match(f[0].message, /^Line 10 pipes a download into a shell \(curl -fsSL https:\/\/example\.com\/install\.sh \| sh\)/);
  });

  it('can be dismissed in the skill, as any code', () => {
    const body = '```bash\ncurl -L https://example.com/linpeas.sh | sh\n```\n<!-- skill-router-ignore body.pipe-to-shell -->\n';
    const doc = parse(withBody(body));
    assert.deepEqual(doc.findings.map((f) => f.code), ['body.pipe-to-shell']);
    assert.deepEqual(applyFindingPolicy(doc, doc.findings, [], () => undefined, DEFAULT_FINDING_POLICY), []);
  });

  it('leaves prose, warnings and pipes into other programs alone', () => {
    for (const body of [
      'Never pipe curl into bash.\n',
      'Do not run curl | sh on a server.\n',
      "Don't use `curl https://x | sh`: download the script first.\n",
      'Avoid this:\n\n```bash\ncurl https://example.com/install.sh | bash\n```\n',
      '```bash\ncurl https://example.com/install.sh | bash  # insecure: do not do this\n```\n',
      '```bash\ncurl -s https://api.example.com/items | jq .\ncurl -s https://api.example.com/items | python3 -m json.tool\ncurl -s https://example.com/x.tgz | tar xz\n```\n',
      '```bash\ncurl -fsSLo install.sh https://example.com/install.sh && sha256sum -c install.sha256 && sh install.sh\n```\n',
      '```bash\ncurl -f https://example.com/health || sh restart.sh\n```\n',
      '```bash\ncat install.sh | bash\n```\n',
      '    curl https://example.com/install.sh | bash\n',
      '- **Pipes**: `curl ... | bash`, `iwr ... | iex`.\n',
      '```bash\ncurl <url> | sh\n```\n',
      'Piping `curl https://x.dev/i.sh | sh` into a root shell is dangerous.\n',
    ]) {
      assert.deepEqual(shellLines(body), [], body);
    }
  });
});

describe('skill.duplicate-name', () => {
  const doc = (folder: string, name: string) => parseSkill({ id: folder, path: `${folder}/SKILL.md`, folderName: folder.split('/').pop() }, `---\nname: ${name}\ndescription: Does ${folder}.\n---\n`, ['spec']);

  it('puts one finding on each skill with the name, pointing at the others', () => {
    const docs = [doc('lib/pdf', 'pdf'), doc('lib/pdf-tools', 'pdf'), doc('lib/csv', 'csv'), doc('lib/nameless', '')];
    const names = new SameNames(docs, false);
    const a = names.findings(docs[0]);
    assert.deepEqual(a.map((f) => [f.code, f.severity, f.range.start.line]), [['skill.duplicate-name', 'warning', 1]]);
    assert.match(a[0].message, /^Another skill of this library also has the name 'pdf' \(lib\/pdf-tools\/\)/);
    assert.deepEqual(a[0].related?.map((r) => [r.skillId, r.path, r.range.start.line]), [['lib/pdf-tools', 'lib/pdf-tools/SKILL.md', 1]]);
    assert.deepEqual(names.findings(docs[1])[0].related?.map((r) => r.skillId), ['lib/pdf']);
    assert.deepEqual(names.findings(docs[2]), []);
    assert.deepEqual(names.findings(docs[3]), [], 'a skill without a name is not compared');
  });

  it('compares within a top-level folder unless acrossFolders, like the pair scan', () => {
    const docs = [doc('team-a/review', 'review'), doc('team-b/review', 'review')];
    assert.deepEqual(new SameNames(docs, false).findings(docs[0]), []);
    assert.equal(new SameNames(docs, true).findings(docs[0]).length, 1);
  });

  it('reaches the editor with relatedInformation at the other SKILL.md', () => {
    const docs = [doc('pdf', 'pdf'), doc('pdf-tools', 'pdf')];
    const names = new SameNames(docs, false);
    const ctx: DiagnosticContext = {
      settings: DEFAULT_SETTINGS,
      href: (code) => `https://docs/#${code}`,
      skill: (id) => docs.find((d) => d.id === id),
      uriOf: (id) => `file:///lib/${id}/SKILL.md`,
      sameName: (d) => names.findings(d),
    };
    const [d] = skillDiagnostics(docs[1], [], ctx).filter((x) => x.code === 'skill.duplicate-name');
    assert.ok(d, 'the diagnostic');
    assert.deepEqual(d.relatedInformation?.map((r) => [r.location.uri, r.message]), [['file:///lib/pdf/SKILL.md', "pdf/: also named 'pdf'"]]);
  });
});
