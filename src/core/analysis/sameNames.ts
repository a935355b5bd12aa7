/**
 * Skills of one library that declare the same front-matter `name` (`skill.duplicate-name`): an
 * agent lists and invokes skills by name, so it cannot tell them apart. The one index behind the
 * editor's diagnostics and `skill-router check`.
 */
import type { Finding, SkillDoc } from '../types';
import { scopeOf } from './pairScan';

export const DUPLICATE_NAME = 'skill.duplicate-name';

/** The `name` a skill declares, as validation reads it (trimmed, NFKC); null when it declares none. */
export function declaredName(doc: Pick<SkillDoc, 'frontMatter'>): string | null {
  const v = doc.frontMatter.name;
  return typeof v === 'string' && v.trim() ? v.trim().normalize('NFKC') : null;
}

/** The skill folder of a SKILL.md path, as findings name it (`tools/pdf/SKILL.md` → `tools/pdf/`). */
const folderOf = (doc: SkillDoc) => `${doc.path.replace(/\/?SKILL\.md$/i, '') || doc.id}/`;

/**
 * The library's skills by declared name, within each skill's scope: its top-level folder (one
 * collection of a root that holds several), or the whole library with `acrossFolders`, as the
 * pair scan scopes near-duplicates (`skillRouter.pairs.acrossFolders`, check config `pairs`).
 */
export class SameNames {
  private readonly groups = new Map<string, SkillDoc[]>();

  constructor(docs: readonly SkillDoc[], private readonly acrossFolders: boolean) {
    for (const doc of docs) {
      const key = this.key(doc);
      if (key === null) continue;
      const group = this.groups.get(key);
      if (group) group.push(doc);
      else this.groups.set(key, [doc]);
    }
  }

  private key(doc: SkillDoc): string | null {
    const name = declaredName(doc);
    return name === null ? null : `${scopeOf(doc.id, this.acrossFolders)}\n${name}`;
  }

  /** The other skills that declare `doc`'s name (`doc` may be a newer text of an indexed skill). */
  peers(doc: SkillDoc): SkillDoc[] {
    const key = this.key(doc);
    return key === null ? [] : (this.groups.get(key) ?? []).filter((d) => d.id !== doc.id);
  }

  /** `skill.duplicate-name` on `doc` when other skills declare its name: one finding, pointing at each of them. */
  findings(doc: SkillDoc): Finding[] {
    const peers = this.peers(doc);
    if (!peers.length) return [];
    const name = declaredName(doc)!;
    const others = peers.map(folderOf);
    const shown = others.length > 3 ? `${others.slice(0, 3).join(', ')} and ${others.length - 3} more` : others.join(', ');
    return [{
      code: DUPLICATE_NAME,
      severity: 'warning',
      message:
        `${peers.length === 1 ? 'Another skill' : `${peers.length} other skills`} of this library also ${peers.length === 1 ? 'has' : 'have'} the name '${name}' (${shown}): ` +
        'agents list and invoke skills by name, so they cannot tell these apart and clients may load only one. Give each skill its own name (and folder).',
      range: doc.keyRanges.name ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      related: peers.map((p) => ({ skillId: p.id, path: p.path, range: p.keyRanges.name ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, message: `also named '${name}'` })),
    }];
  }
}
