/** When each indexing stage first and last reported progress (the benches time stages from these). */
export function stageClock(): { progress: (stage: string) => void; first: Map<string, number>; last: Map<string, number> } {
  const first = new Map<string, number>();
  const last = new Map<string, number>();
  const progress = (stage: string) => {
    const now = performance.now();
    if (!first.has(stage)) first.set(stage, now);
    last.set(stage, now);
  };
  return { progress, first, last };
}
