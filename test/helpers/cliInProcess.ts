/**
 * The CLI's built bundle (dist/cli.js) run in process, and the small skill libraries the CLI
 * tests route over: the real engine, the real ONNX encoder included.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');

type Main = (io: { argv: string[]; cwd: string; stdout: (s: string) => void; stderr: (s: string) => void; env?: Record<string, string | undefined> }) => Promise<number>;

/** Runs `skill-router <argv>` in `cwd` with an empty environment; its exit code and output. */
export async function runCli(argv: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const main = (require(join(ROOT, 'dist/cli.js')) as { main: Main }).main;
  const out = { stdout: '', stderr: '' };
  const code = await main({ argv, cwd, stdout: (s) => void (out.stdout += s), stderr: (s) => void (out.stderr += s), env: {} });
  return { code, ...out };
}

/**
 * Writes `<dir>/lib/<name>/SKILL.md` for each skill: its description, or its description and
 * body; without a body, a heading and one line.
 */
export function writeLibrary(dir: string, skills: Record<string, string | { description: string; body: string }>): void {
  for (const [name, skill] of Object.entries(skills)) {
    const { description, body } = typeof skill === 'string' ? { description: skill, body: `# ${name}\n\nSteps for the job.` } : skill;
    mkdirSync(join(dir, 'lib', name), { recursive: true });
    writeFileSync(join(dir, 'lib', name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n---\n\n${body}\n`);
  }
}
