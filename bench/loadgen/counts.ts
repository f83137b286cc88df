/**
 * Plain counters that cross process boundaries (error kinds and their counts) and the merging
 * of per-worker results.
 * @module
 */

/** Error kind -> count. */
export type Counts = Record<string, number>;

/** Adds one `key` to `counts`. */
export function count(counts: Counts, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

/** Sums several {@link Counts}. */
export function mergeCounts(all: readonly Counts[]): Counts {
  const out: Counts = {};
  for (const c of all) for (const [k, v] of Object.entries(c)) out[k] = (out[k] ?? 0) + v;
  return out;
}

/** `kind ×n; ...` or `none`. */
export function describeCounts(counts: Counts): string {
  const entries = Object.entries(counts).sort((a, b) => b[1] - a[1]);
  return entries.length === 0 ? 'none' : entries.map(([k, v]) => `${k} ×${v}`).join('; ');
}

/** The error text used as a count key (short, without ids). */
export function errorKind(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '<id>').slice(0, 80);
}
