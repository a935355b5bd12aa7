/** Deterministic fakes for fast unit tests of the engine. */
import type { CancelToken, Embedder } from '../../src/core/types';
import type { SkillFileRef, SkillWorkspace } from '../../src/core/workspace';
import { analyse } from '../../src/core/text/analyse';

/** Bag of hashed stems → unit vector: texts sharing words are close. */
export class FakeEmbedder implements Embedder {
  readonly info = { id: 'fake@1', dims: 64, maxTokens: 128 };
  calls = 0;
  texts = 0;

  async embed(texts: string[], _kind: 'query' | 'passage', _token?: CancelToken): Promise<Float32Array[]> {
    this.calls++;
    this.texts += texts.length;
    return texts.map((t) => {
      const v = new Float32Array(this.info.dims);
      for (const term of analyse(t)) {
        let h = 7;
        for (let i = 0; i < term.length; i++) h = (h * 31 + term.charCodeAt(i)) >>> 0;
        v[h % this.info.dims] += 1;
      }
      const norm = Math.hypot(...v) || 1;
      return v.map((x) => x / norm);
    });
  }
}

/** A `FakeEmbedder` whose passage batches wait until `open()`: an index held in its embedding stage. */
export class GatedEmbedder extends FakeEmbedder {
  /** Passage batches waiting for the gate. */
  waiting = 0;
  private release!: () => void;
  private readonly gate = new Promise<void>((resolve) => (this.release = resolve));

  open(): void {
    this.release();
  }

  override async embed(texts: string[], kind: 'query' | 'passage', token?: CancelToken): Promise<Float32Array[]> {
    if (kind === 'passage') {
      this.waiting++;
      await this.gate;
      this.waiting--;
    }
    return super.embed(texts, kind, token);
  }
}

/** Skills in memory: `files` maps SKILL.md paths (e.g. `pdf/SKILL.md`) to text. */
export class MemoryWorkspace implements SkillWorkspace {
  reads = 0;

  constructor(readonly files: Map<string, string | Uint8Array>) {}

  async list(): Promise<{ files: SkillFileRef[]; problems: { path: string; message: string }[] }> {
    const refs = [...this.files.keys()].sort().map((p) => {
      const id = p.split('/').slice(0, -1).join('/') || '.';
      return { id, path: p, folderName: id.split('/').pop() };
    });
    return { files: refs, problems: [] };
  }

  async read(ref: SkillFileRef): Promise<Uint8Array> {
    this.reads++;
    const v = this.files.get(ref.path);
    if (v === undefined) throw new Error(`ENOENT: ${ref.path}`);
    return typeof v === 'string' ? new TextEncoder().encode(v) : v;
  }
}

export function skill(name: string, description: string, body = ''): string {
  return `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n---\n${body}\n`;
}

/**
 * A library where `forms` answers `BODY_ONLY_REQUEST` by its body alone (its description says only
 * "user interfaces"), so ranking over what a client lists loses it to `blazor-intro`.
 */
export function bodyOnlyLibrary(): Map<string, string> {
  return new Map([
    ['forms/SKILL.md', skill('forms', 'Builds .NET user interfaces.', '## Blazor components\nParameters, event callbacks and form validation for Blazor components.')],
    ['blazor-intro/SKILL.md', skill('blazor-intro', 'Explains what Blazor components are, for newcomers to Blazor.')],
    ['ci/SKILL.md', skill('ci', 'Configures CI pipelines.')],
  ]);
}
export const BODY_ONLY_REQUEST = 'Blazor component parameters event callbacks form validation';
