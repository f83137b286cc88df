/**
 * A CDP CPU profile (`Profiler.stop`) summed per function: the top self times of a run, for
 * bench/chat-browser.ts (`PROFILE=dir`).
 * @module
 */

/** The parts of a CDP `Profiler.Profile` read here. */
export interface CpuProfile {
  nodes: { id: number; hitCount?: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  startTime: number;
  endTime: number;
}

/**
 * The `top` functions by self time (samples), one line each: share of the samples, ms, name and
 * where (file name and line of the bundle).
 */
export function summariseProfile(profile: CpuProfile, top: number): string {
  const self = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    if (hits === 0) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const key = `${functionName || '(anonymous)'} ${url ? `${url.split('/').pop()}:${lineNumber + 1}` : ''}`.trim();
    self.set(key, (self.get(key) ?? 0) + hits);
    total += hits;
  }
  const ms = (profile.endTime - profile.startTime) / 1000;
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([key, hits]) => `${((hits / total) * 100).toFixed(1).padStart(5)}%  ${((hits / total) * ms).toFixed(1).padStart(7)} ms  ${key}`)
    .join('\n');
}
