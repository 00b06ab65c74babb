// The frames with the most self time in a V8 CPU profile (`node --cpu-prof`, or the inspector's
// Profiler): shared by bench/receiver-profile.ts and bench/peers.ts --profile.

/** The parts of a `.cpuprofile` read here. */
export interface Profile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
}

/**
 * The frames with the most self time: name, file:line (under packages/ or node_modules/), share of
 * the busy samples (idle left out).
 *
 * @example
 * for (const line of topFrames(JSON.parse(readFileSync(file, 'utf8')) as Profile, 15)) console.log(line);
 */
export function topFrames(profile: Profile, count: number): string[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let total = 0;
  for (const id of profile.samples) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === '(idle)') continue; // waiting on the network: not CPU
    total++;
    const file = url.replace(/^.*\/(packages|node_modules)\//, '$1/').replace(/^node:/, '');
    const key = `${functionName || '(anonymous)'}${file ? ` ${file}:${lineNumber + 1}` : ''}`;
    self.set(key, (self.get(key) ?? 0) + 1);
  }
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([key, n]) => `${((100 * n) / total).toFixed(1).padStart(5)} %  ${key}`);
}
