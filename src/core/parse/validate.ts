/**
 * Validation against the Agent Skills specification (messages worded as the reference
 * validator `skills-ref` words them) and against what each client actually loads; the rules of
 * the spec and of each client are in ../profiles.ts.
 */
import {
  allowedKeys,
  CLIENT_PROFILES,
  listingText,
  MAX_COMPATIBILITY,
  MAX_DESCRIPTION,
  MAX_NAME,
  PROFILES,
  type ClientProfile,
  type ProfileId,
} from '../profiles';
import type { Finding, Severity, TextRange } from '../types';
import type { FrontMatterResult } from './frontMatter';

const NAME_CHARS = /^[\p{L}\p{N}-]+$/u;
const NOT_NAME_CHAR = /[^\p{L}\p{N}-]/gu;

interface Ctx {
  fm: FrontMatterResult;
  folderName: string | undefined;
  findings: Finding[];
}

function add(ctx: Ctx, code: string, severity: Severity, message: string, key?: string, profile?: ProfileId): void {
  const range: TextRange = (key && Object.hasOwn(ctx.fm.keyRanges, key) && ctx.fm.keyRanges[key]) || ctx.fm.blockRange;
  ctx.findings.push({ code, severity, message, range, ...(profile && profile !== 'spec' ? { profile } : {}) });
}

/**
 * Validates parsed front matter. `folderName` is the skill folder's name (the spec requires
 * `name` to equal it); omit it for skills that have no folder (a `.jsonl` library).
 */
export function validateFrontMatter(
  fm: FrontMatterResult,
  folderName: string | undefined,
  profiles: readonly ProfileId[] = ['spec'],
): Finding[] {
  const ctx: Ctx = { fm, folderName, findings: [] };
  if (fm.error) {
    ctx.findings.push({ code: 'frontmatter.invalid-yaml', severity: 'error', message: fm.error.message, range: fm.error.range });
    return ctx.findings;
  }
  for (const p of fm.pitfalls) {
    if (p.kind === 'comment') ctx.findings.push({ code: 'frontmatter.value-cut', severity: 'warning', message: `Front matter: ${p.message}`, range: p.range });
  }
  if (!fm.hasFrontMatter) {
    add(ctx, 'frontmatter.missing', 'error', 'SKILL.md must start with YAML front matter (---) containing name and description');
    return ctx.findings;
  }
  const data = fm.data;
  const allowed = new Set(allowedKeys(profiles));
  const extra = Object.keys(data).filter((k) => !allowed.has(k)).sort();
  if (extra.length) {
    const scope = profiles.length === 1 && profiles[0] === 'spec' ? 'the spec' : profiles.map((p) => CLIENT_PROFILES[p].label).join(', ');
    for (const key of extra) {
      add(ctx, 'frontmatter.unknown-key', 'warning',
        `Unexpected fields in frontmatter: ${key}. Only ${[...allowed].sort().join(', ')} are allowed (${scope}).${clientKeyHint(key, profiles)}`, key);
    }
  }
  validateName(ctx, data);
  validateDescription(ctx, data);
  if ('compatibility' in data) {
    const c = data.compatibility;
    if (typeof c !== 'string') add(ctx, 'frontmatter.compatibility-type', 'error', `Field 'compatibility' must be a string${listHint(ctx, 'compatibility')}`, 'compatibility');
    else if (c.length > MAX_COMPATIBILITY) {
      add(ctx, 'frontmatter.compatibility-too-long', 'error',
        `Compatibility exceeds ${MAX_COMPATIBILITY} character limit (${c.length} chars)`, 'compatibility');
    }
  }
  if ('allowed-tools' in data) {
    const t = data['allowed-tools'];
    if (Array.isArray(t)) {
      if (!t.every((x) => typeof x === 'string')) {
        add(ctx, 'frontmatter.allowed-tools-type', 'error', "Field 'allowed-tools' list items must all be strings", 'allowed-tools');
      }
    } else if (typeof t !== 'string') {
      add(ctx, 'frontmatter.allowed-tools-type', 'error', "Field 'allowed-tools' must be either a string or a list of strings", 'allowed-tools');
    }
  }
  // An empty `metadata:` (null) is no metadata: the reference validator accepts it.
  if ('metadata' in data && data.metadata !== null && (typeof data.metadata !== 'object' || Array.isArray(data.metadata))) {
    add(ctx, 'frontmatter.metadata-type', 'error', "Field 'metadata' must be a mapping of keys to values", 'metadata');
  }
  for (const p of profiles) validateProfile(ctx, CLIENT_PROFILES[p]);
  return ctx.findings;
}

/** Why a value that must be text is not, when YAML syntax made it a list: appended to the type message. */
function listHint(ctx: Ctx, key: string): string {
  const p = ctx.fm.pitfalls.find((x) => x.kind === 'list' && x.key === key);
  return p ? ` (${p.message})` : '';
}

/**
 * A valid name close to `name`: lower case, every run of other characters a hyphen, no hyphen at
 * the ends or twice in a row. Empty when nothing of it is left.
 */
export function suggestName(name: string): string {
  return name.normalize('NFKC').toLowerCase().replace(NOT_NAME_CHAR, '-').replace(/-{2,}/g, '-').replace(/^-|-$/g, '').slice(0, MAX_NAME).replace(/-$/, '');
}

/** `a`, `a and b`, `a, b and c`. */
const andList = (parts: string[]) => (parts.length < 2 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`);

/**
 * The name's format rules (case, hyphens, characters) as one finding: one problem, one
 * diagnostic. A single broken rule keeps the reference validator's wording; several are named
 * together, with a name that would pass.
 */
function nameFormat(ctx: Ctx, name: string): void {
  const broken: { code: string; message: string; part: string }[] = [];
  if (name !== name.toLowerCase()) broken.push({ code: 'frontmatter.name-case', message: `Skill name '${name}' must be lowercase`, part: 'must be lowercase' });
  if (name.startsWith('-') || name.endsWith('-')) {
    broken.push({ code: 'frontmatter.name-hyphen', message: 'Skill name cannot start or end with a hyphen', part: 'cannot start or end with a hyphen' });
  }
  if (name.includes('--')) broken.push({ code: 'frontmatter.name-hyphen', message: 'Skill name cannot contain consecutive hyphens', part: 'cannot contain consecutive hyphens' });
  if (!NAME_CHARS.test(name)) {
    const bad = [...new Set(name.match(NOT_NAME_CHAR) ?? [])].map((c) => (c === ' ' ? 'spaces' : `'${c}'`));
    broken.push({
      code: 'frontmatter.name-chars',
      message: `Skill name '${name}' contains invalid characters. Only letters, digits, and hyphens are allowed.`,
      part: `contains invalid characters (${andList(bad)})`,
    });
  }
  if (!broken.length) return;
  if (broken.length === 1) {
    add(ctx, broken[0].code, 'error', broken[0].message, 'name');
    return;
  }
  // The broadest rule names the finding: invalid characters, then case, then hyphens.
  const order = ['frontmatter.name-chars', 'frontmatter.name-case', 'frontmatter.name-hyphen'];
  const code = order.find((c) => broken.some((b) => b.code === c))!;
  const suggestion = suggestName(name);
  add(ctx, code, 'error',
    `Skill name '${name}' ${andList(broken.map((b) => b.part))}. Only lowercase letters, digits, and hyphens are allowed` +
      (suggestion ? `: '${suggestion}' would do.` : '.'), 'name');
}

function validateName(ctx: Ctx, data: Record<string, unknown>): void {
  if (!('name' in data)) {
    add(ctx, 'frontmatter.name-missing', 'error', 'Missing required field in frontmatter: name');
    return;
  }
  const raw = data.name;
  if (typeof raw !== 'string' || !raw.trim()) {
    add(ctx, 'frontmatter.name-empty', 'error', `Field 'name' must be a non-empty string${listHint(ctx, 'name')}`, 'name');
    return;
  }
  const name = raw.trim().normalize('NFKC');
  if ([...name].length > MAX_NAME) {
    add(ctx, 'frontmatter.name-too-long', 'error', `Skill name '${name}' exceeds ${MAX_NAME} character limit (${[...name].length} chars)`, 'name');
  }
  nameFormat(ctx, name);
  if (ctx.folderName !== undefined && ctx.folderName.normalize('NFKC') !== name) {
    add(ctx, 'frontmatter.name-mismatch', 'error', `Directory name '${ctx.folderName}' must match skill name '${name}'`, 'name');
  }
}

function validateDescription(ctx: Ctx, data: Record<string, unknown>): void {
  if (!('description' in data)) {
    add(ctx, 'frontmatter.description-missing', 'error', 'Missing required field in frontmatter: description');
    return;
  }
  const d = data.description;
  if (typeof d !== 'string' || !d.trim()) {
    add(ctx, 'frontmatter.description-empty', 'error', `Field 'description' must be a non-empty string${listHint(ctx, 'description')}`, 'description');
    return;
  }
  if (d.length > MAX_DESCRIPTION) {
    add(ctx, 'frontmatter.description-too-long', 'error',
      `Description exceeds ${MAX_DESCRIPTION} character limit (${d.length} chars)`, 'description');
  }
}

function validateProfile(ctx: Ctx, profile: ClientProfile): void {
  if (profile.id === 'spec') return;
  const data = ctx.fm.data;
  const listing = listingText(data, profile);
  if (listing.dropped) {
    add(ctx, 'skill.budget', 'error',
      `${profile.label} does not load skills whose description is over ${profile.dropDescriptionOver} characters ` +
      `(this one has ${(data.description as string).length}): the skill will never be offered.`, 'description', profile.id);
  } else if (listing.cut) {
    add(ctx, 'skill.budget', 'warning',
      `${profile.label} lists only the first ${profile.listingCap} characters of ${profile.listingFields.join(' + ')} ` +
      `(${listing.full} here): the rest is cut from what the agent sees.`, 'description', profile.id);
  }
}

/**
 * When `key` is a field of a client not checked for ("user-invocable" is Claude Code's and
 * Copilot's), how to accept it; empty otherwise.
 */
function clientKeyHint(key: string, profiles: readonly ProfileId[]): string {
  const clients = PROFILES.filter((p) => !profiles.includes(p) && CLIENT_PROFILES[p].extraKeys.includes(key));
  if (!clients.length) return '';
  const labels = clients.map((p) => CLIENT_PROFILES[p].label);
  const names = labels.length === 1 ? labels[0] : `${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]}`;
  return ` It is a field of ${names}: check for ${clients.length > 1 ? 'one of them' : 'that client'} to accept it (\`--profile ${clients[0]}\`, \`profiles\` in skill-router.yaml, or the skillRouter.profiles setting).`;
}
