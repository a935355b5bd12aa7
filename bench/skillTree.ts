/**
 * What the workspace benches share: the SKILL.md files under a folder, a varied copy of a
 * description (bench/variedCopies.ts, bench/branchSwitch.ts), and a server process's memory
 * (bench/lsp.ts, bench/branchSwitch.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

/** Every SKILL.md under `dir`, in name order. */
export function skillFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((e) => {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) return skillFiles(p);
      return e.name === 'SKILL.md' ? [p] : [];
    });
}

const TAGS = ['quickly', 'carefully', 'for teams', 'step by step', 'at scale', 'offline', 'in CI', 'for beginners'];

/** Copy `i` (from 1) of a description: every (i + 4)th word left out, one tag appended. */
export function varyDescription(description: string, i: number): string {
  const words = description.split(/\s+/).filter(Boolean);
  const kept = words.filter((_, n) => (n + 1) % (i + 4) !== 0);
  return `${kept.join(' ')} (${TAGS[i % TAGS.length]})`;
}

/** A process's resident memory now and at its peak, in MB (Linux /proc; null elsewhere). */
export function processMemory(pid: number | undefined): { rssMb: number; peakRssMb: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
    return { rssMb: Math.round(kb('VmRSS') / 1024), peakRssMb: Math.round(kb('VmHWM') / 1024) };
  } catch {
    return null;
  }
}
