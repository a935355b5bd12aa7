/**
 * A library given as a `.jsonl` file of `{"id", "text": "name | description | body"}` lines
 * (the R3-Skill release format). Each line becomes a virtual SKILL.md.
 */
import { promises as fs } from 'node:fs';
import type { SkillFileRef, SkillWorkspace } from '../core/workspace';

export class JsonlWorkspace implements SkillWorkspace {
  private texts = new Map<string, string>();

  constructor(readonly file: string) {}

  async list(): Promise<{ files: SkillFileRef[]; problems: { path: string; message: string }[] }> {
    const raw = (
      await fs.readFile(this.file, 'utf8').catch((err: NodeJS.ErrnoException) => {
        throw new Error(`cannot read library file ${this.file}: ${err.code ?? err.message}`);
      })
    ).replace(/^\uFEFF/, '');
    const files: SkillFileRef[] = [];
    const problems: { path: string; message: string }[] = [];
    this.texts.clear();
    raw.split('\n').forEach((line, i) => {
      if (!line.trim()) return;
      const where = `${this.file}:${i + 1}`;
      let obj: { id?: unknown; text?: unknown; name?: unknown; description?: unknown; body?: unknown };
      try {
        obj = JSON.parse(line);
      } catch (err) {
        problems.push({ path: where, message: `not valid JSON: ${(err as Error).message}` });
        return;
      }
      if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) {
        problems.push({ path: where, message: 'each line must be a JSON object with "id" and "text"' });
        return;
      }
      if (typeof obj.id !== 'string' || !obj.id) {
        problems.push({ path: where, message: 'each line needs a string "id"' });
        return;
      }
      if (this.texts.has(obj.id)) {
        problems.push({ path: where, message: `duplicate id "${obj.id}": an earlier line has it; this line was skipped` });
        return;
      }
      let name: string;
      let description: string;
      let body: string;
      if (typeof obj.text === 'string') {
        const parts = obj.text.split(' | ');
        name = parts[0] ?? '';
        description = parts[1] ?? '';
        body = parts.slice(2).join(' | ');
      } else {
        name = String(obj.name ?? '');
        description = String(obj.description ?? '');
        body = String(obj.body ?? '');
      }
      // JSON strings are valid YAML scalars, so this front matter parses exactly.
      this.texts.set(obj.id, `---\nname: ${JSON.stringify(name)}\ndescription: ${JSON.stringify(description)}\n---\n${body}`);
      files.push({ id: obj.id, path: obj.id });
    });
    return { files, problems };
  }

  async read(ref: SkillFileRef): Promise<Uint8Array> {
    const text = this.texts.get(ref.id);
    if (text === undefined) throw new Error(`no such skill in ${this.file}: ${ref.id}`);
    return new TextEncoder().encode(text);
  }
}
