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
  type ClientProfile,
  type ProfileId,
} from '../profiles';
import type { Finding, Severity, TextRange } from '../types';
import type { FrontMatterResult } from './frontMatter';

const NAME_CHARS = /^[\p{L}\p{N}-]+$/u;

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
        `Unexpected fields in frontmatter: ${key}. Only ${[...allowed].sort().join(', ')} are allowed (${scope}).`, key);
    }
  }
  validateName(ctx, data);
  validateDescription(ctx, data);
  if ('compatibility' in data) {
    const c = data.compatibility;
    if (typeof c !== 'string') add(ctx, 'frontmatter.compatibility-type', 'error', "Field 'compatibility' must be a string", 'compatibility');
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
  if ('metadata' in data && (data.metadata === null || typeof data.metadata !== 'object' || Array.isArray(data.metadata))) {
    add(ctx, 'frontmatter.metadata-type', 'error', "Field 'metadata' must be a mapping of keys to values", 'metadata');
  }
  for (const p of profiles) validateProfile(ctx, CLIENT_PROFILES[p]);
  return ctx.findings;
}

function validateName(ctx: Ctx, data: Record<string, unknown>): void {
  if (!('name' in data)) {
    add(ctx, 'frontmatter.name-missing', 'error', 'Missing required field in frontmatter: name');
    return;
  }
  const raw = data.name;
  if (typeof raw !== 'string' || !raw.trim()) {
    add(ctx, 'frontmatter.name-empty', 'error', "Field 'name' must be a non-empty string", 'name');
    return;
  }
  const name = raw.trim().normalize('NFKC');
  if ([...name].length > MAX_NAME) {
    add(ctx, 'frontmatter.name-too-long', 'error', `Skill name '${name}' exceeds ${MAX_NAME} character limit (${[...name].length} chars)`, 'name');
  }
  if (name !== name.toLowerCase()) add(ctx, 'frontmatter.name-case', 'error', `Skill name '${name}' must be lowercase`, 'name');
  if (name.startsWith('-') || name.endsWith('-')) {
    add(ctx, 'frontmatter.name-hyphen', 'error', 'Skill name cannot start or end with a hyphen', 'name');
  }
  if (name.includes('--')) add(ctx, 'frontmatter.name-hyphen', 'error', 'Skill name cannot contain consecutive hyphens', 'name');
  if (!NAME_CHARS.test(name)) {
    add(ctx, 'frontmatter.name-chars', 'error',
      `Skill name '${name}' contains invalid characters. Only letters, digits, and hyphens are allowed.`, 'name');
  }
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
    add(ctx, 'frontmatter.description-empty', 'error', "Field 'description' must be a non-empty string", 'description');
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
