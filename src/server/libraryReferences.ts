/**
 * The reference state of the workspace's libraries (core/analysis/references.ts): each engine's
 * skill names for the reference checks, the names added, removed or renamed since the skills that
 * hold them were last re-published, and the library of one open document as it stands for
 * definition, references, rename and document links. Apart from `WorkspaceIndex`, which asks it.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { LibraryNames, referenceFindings, skillNames } from '../core/analysis/references';
import { parseSkill } from '../core/parse/skillDoc';
import type { LiveSkillService } from '../core/service';
import type { Finding, SkillDoc } from '../core/types';
import type { SkillFileRef } from '../core/workspace';
import { libraryFileExists } from '../node/skillFolderFiles';
import type { FolderLibrary } from './folderLibrary';
import type { ReferenceView } from './references';

export class LibraryReferences {
  /**
   * The names of each engine's skills; dropped whenever a skill is updated or the library re-read
   * (the engine swaps skills in place, so its list cannot key it).
   */
  private readonly names = new WeakMap<LiveSkillService, LibraryNames>();
  /** Names of skills added, removed or renamed since the skills whose bodies hold them were re-published. */
  private readonly changed = new Map<FolderLibrary, Set<string>>();

  /** A skill's names before an update, for `updated`. */
  namesOf(doc: SkillDoc | undefined): string[] {
    return doc ? skillNames(doc) : [];
  }

  /** The library was re-read: its names are read again. */
  forget(service: LiveSkillService): void {
    this.names.delete(service);
  }

  /** After one skill's update: its library's names are read again, and a changed name remembered. */
  updated(lib: FolderLibrary, service: LiveSkillService, before: readonly string[], after: readonly string[]): void {
    this.names.delete(service);
    if (before.join('\n') === after.join('\n')) return;
    const changed = this.changed.get(lib) ?? new Set<string>();
    for (const n of [...before, ...after]) changed.add(n);
    this.changed.set(lib, changed);
  }

  /**
   * The skills whose bodies may name one that came, went or changed its name since the last call
   * (a substring test: a rename is rare), and forgets the names.
   */
  takeAffected(lib: FolderLibrary, service: LiveSkillService): string[] {
    const renamed = this.changed.get(lib);
    this.changed.delete(lib);
    if (!renamed?.size) return [];
    return service.skills().filter((d) => [...renamed].some((n) => d.body.includes(n))).map((d) => d.id);
  }

  /** A skill's `skill.broken-reference` and `file.broken-link` findings; none before the library is ready. */
  findings(lib: FolderLibrary | undefined, doc: SkillDoc): Finding[] {
    const service = lib?.service;
    if (!lib || !service || lib.state !== 'ready') return [];
    let names = this.names.get(service);
    if (!names) this.names.set(service, (names = new LibraryNames(service.skills())));
    return referenceFindings(doc, names, libraryFileExists(lib.root));
  }

  /**
   * The library of an open SKILL.md as it stands (open buffers, `openText`, win over disk), for
   * definition, references, rename and document links.
   */
  view(lib: FolderLibrary, ref: SkillFileRef, text: string, openText: (file: string) => string | undefined, uriOf: (relPath: string) => string): ReferenceView | undefined {
    const service = lib.service;
    if (!service) return undefined;
    const profiles = lib.settings.profiles;
    const folderName = (id: string) => id.slice(id.lastIndexOf('/') + 1);
    const fileOf = (relPath: string) => path.join(lib.root, ...relPath.split('/'));
    const self = parseSkill(ref, text, profiles);
    const docs = service.skills().map((d) => {
      if (d.id === ref.id) return self;
      const open = openText(fileOf(d.path));
      return open !== undefined ? parseSkill({ id: d.id, path: d.path, folderName: folderName(d.id) }, open, profiles) : d;
    });
    if (!docs.includes(self)) docs.push(self);
    return {
      docs,
      names: new LibraryNames(docs),
      self,
      selfText: text,
      uriOf: (doc) => uriOf(doc.path),
      textOf: async (doc) => openText(fileOf(doc.path)) ?? fs.readFile(fileOf(doc.path), 'utf8').catch(() => null),
      libraryUri: (relPath) => pathToFileURL(fileOf(relPath)).href,
      exists: libraryFileExists(lib.root),
    };
  }
}
