/**
 * In how many skills of a library each template key (a description sentence or heading, hashed:
 * pairCache.ts `templateHash`) occurs, copies counted once: of the skills sharing a description,
 * only the first in the library's order counts its keys. The pair scan asks before it writes a
 * skill's probe requests (text in three or more skills is template text, not a probe).
 *
 * Kept by the library's scan cache and brought up to date by each scan: counting a 19,909-skill
 * library took ~60-130 ms and its garbage on every edit; an update recounts the descriptions of the
 * skills added, changed or gone only.
 */
import type { SkillDoc } from '../types';

interface Held {
  hash: string;
  description: string;
  keys: readonly number[];
}

/** Past this many changed skills an update counts the library again. */
const RECOUNT_OVER = 2000;

export class TemplateCounts {
  private readonly counts = new Map<number, number>();
  private readonly held = new Map<string, Held>();
  /** Skill ids by description. */
  private readonly members = new Map<string, Set<string>>();
  /** The keys counted for each description (those of its first skill when they were counted). */
  private readonly counted = new Map<string, readonly number[]>();
  private source: readonly SkillDoc[] | null = null;

  /**
   * The counts of `docs` (in the library's order); `keysOf` gives the template keys of a skill
   * added or changed. The map is this object's own, valid until the next update.
   */
  of(docs: readonly SkillDoc[], keysOf: (doc: SkillDoc) => readonly number[]): ReadonlyMap<number, number> {
    if (docs === this.source) return this.counts;
    this.source = docs;
    const changed: SkillDoc[] = [];
    let kept = 0;
    for (const d of docs) {
      const h = this.held.get(d.id);
      if (h?.hash === d.hash) kept++;
      else changed.push(d);
    }
    const gone: string[] = [];
    if (this.held.size > kept + changed.filter((d) => this.held.has(d.id)).length) {
      const ids = new Set(docs.map((d) => d.id));
      for (const id of this.held.keys()) if (!ids.has(id)) gone.push(id);
    }
    if (changed.length + gone.length > RECOUNT_OVER || this.held.size === 0) {
      this.recount(docs, keysOf);
      return this.counts;
    }
    const touched = new Set<string>();
    const leave = (id: string) => {
      const was = this.held.get(id);
      if (!was) return;
      touched.add(was.description);
      this.members.get(was.description)!.delete(id);
      this.held.delete(id);
    };
    for (const id of gone) leave(id);
    for (const d of changed) {
      leave(d.id);
      touched.add(d.description);
      this.hold(d, keysOf(d));
    }
    // The library's order of the skills whose description was touched: one pass over the list.
    const wanted = new Set<string>();
    for (const description of touched) for (const id of this.members.get(description) ?? []) wanted.add(id);
    const order = new Map<string, number>();
    for (let i = 0; i < docs.length; i++) if (wanted.has(docs[i].id)) order.set(docs[i].id, i);
    for (const description of touched) {
      const before = this.counted.get(description);
      if (before) this.add(before, -1);
      this.counted.delete(description);
      const first = this.firstOf(description, order);
      if (first === undefined) {
        this.members.delete(description);
        continue;
      }
      const keys = this.held.get(first)!.keys;
      this.counted.set(description, keys);
      this.add(keys, +1);
    }
    return this.counts;
  }

  private recount(docs: readonly SkillDoc[], keysOf: (doc: SkillDoc) => readonly number[]): void {
    this.counts.clear();
    this.held.clear();
    this.members.clear();
    this.counted.clear();
    for (const d of docs) {
      this.hold(d, keysOf(d));
      if (this.counted.has(d.description)) continue;
      const keys = this.held.get(d.id)!.keys;
      this.counted.set(d.description, keys);
      this.add(keys, +1);
    }
  }

  private hold(d: SkillDoc, keys: readonly number[]): void {
    this.held.set(d.id, { hash: d.hash, description: d.description, keys });
    let set = this.members.get(d.description);
    if (!set) this.members.set(d.description, (set = new Set()));
    set.add(d.id);
  }

  /** The member of `description` first in the library's order. */
  private firstOf(description: string, order: ReadonlyMap<string, number>): string | undefined {
    let best: string | undefined;
    let at = Infinity;
    for (const id of this.members.get(description) ?? []) {
      const i = order.get(id)!;
      if (i < at) [best, at] = [id, i];
    }
    return best;
  }

  private add(keys: readonly number[], by: number): void {
    for (const k of keys) {
      const n = (this.counts.get(k) ?? 0) + by;
      if (n > 0) this.counts.set(k, n);
      else this.counts.delete(k);
    }
  }
}
