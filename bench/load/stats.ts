/**
 * Measurement helpers of the load bench: latency samples with percentiles, counters by key, and a
 * process sampler (CPU time and event-loop delay since the last mark).
 * @module
 */

import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

/** Latency samples in ms. */
export class Samples {
  private readonly values: number[] = [];
  private sorted = true;

  /** Adds one sample. */
  add(ms: number): void {
    if (!Number.isFinite(ms)) return;
    const last = this.values[this.values.length - 1];
    if (last !== undefined && ms < last) this.sorted = false;
    this.values.push(ms);
  }

  /** How many samples. */
  get count(): number {
    return this.values.length;
  }

  /** The `p`-th percentile (nearest rank), or NaN without samples. */
  percentile(p: number): number {
    if (this.values.length === 0) return Number.NaN;
    if (!this.sorted) {
      this.values.sort((a, b) => a - b);
      this.sorted = true;
    }
    const rank = Math.min(this.values.length, Math.max(1, Math.ceil((p / 100) * this.values.length)));
    return this.values[rank - 1] ?? Number.NaN;
  }

  /** `p50 x ms  p99 y ms  max z ms`. */
  describe(): string {
    if (this.count === 0) return 'no samples';
    return `p50 ${ms(this.percentile(50))}  p99 ${ms(this.percentile(99))}  max ${ms(this.percentile(100))}  (n=${this.count})`;
  }
}

/** Counts by key (error sources, refusal reasons). */
export class Tally {
  private readonly counts = new Map<string, number>();
  private readonly examples = new Map<string, string>();

  /** Counts one occurrence of `key`; keeps the first `example` text of each key. */
  add(key: string, example?: string): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    if (example !== undefined && !this.examples.has(key)) this.examples.set(key, example.slice(0, 160));
  }

  /** The total count. */
  get total(): number {
    let n = 0;
    for (const c of this.counts.values()) n += c;
    return n;
  }

  /** `key ×n ("first example"), ...` or `none`. */
  describe(): string {
    if (this.counts.size === 0) return 'none';
    return [...this.counts]
      .sort((a, b) => b[1] - a[1])
      .map(([key, n]) => {
        const example = this.examples.get(key);
        return `${key} ×${n}${example && example !== key ? ` ("${example}")` : ''}`;
      })
      .join('; ');
  }
}

/** What a process did since the last {@link ProcessSampler.mark}. */
export interface ProcessStats {
  /** Wall time since the mark, ms. */
  wallMs: number;
  /** CPU time (user + system) since the mark, ms. */
  cpuMs: number;
  /** Event-loop lag (delay beyond the sampling interval) p50 / p99 / max since the mark, ms. */
  loopP50: number;
  /** See {@link ProcessStats.loopP50}. */
  loopP99: number;
  /** See {@link ProcessStats.loopP50}. */
  loopMax: number;
  /** Resident set size now, MiB. */
  rssMb: number;
  /** V8 heap used now, MiB. */
  heapMb: number;
}

/** The sampling interval of the event-loop delay histogram, ms (subtracted from its values). */
const LOOP_RESOLUTION_MS = 10;

/** Samples this process's CPU time and event-loop delay between marks. */
export class ProcessSampler {
  private readonly histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  private cpu = process.cpuUsage();
  private wall = performance.now();

  constructor() {
    this.histogram.enable();
  }

  /** Starts a new interval. */
  mark(): void {
    this.cpu = process.cpuUsage();
    this.wall = performance.now();
    this.histogram.reset();
  }

  /** The figures since the last mark. */
  read(): ProcessStats {
    const cpu = process.cpuUsage(this.cpu);
    const memory = process.memoryUsage();
    // the histogram records the time between its timer's ticks: the lag is what exceeds the interval
    const toMs = (ns: number): number => (Number.isFinite(ns) ? Math.max(0, ns / 1e6 - LOOP_RESOLUTION_MS) : Number.NaN);
    const sampled = this.histogram.count > 0;
    return {
      wallMs: performance.now() - this.wall,
      cpuMs: (cpu.user + cpu.system) / 1000,
      loopP50: sampled ? toMs(this.histogram.percentile(50)) : Number.NaN,
      loopP99: sampled ? toMs(this.histogram.percentile(99)) : Number.NaN,
      loopMax: sampled ? toMs(this.histogram.max) : Number.NaN,
      rssMb: memory.rss / 2 ** 20,
      heapMb: memory.heapUsed / 2 ** 20,
    };
  }

  /** Stops sampling. */
  stop(): void {
    this.histogram.disable();
  }
}

/** One line about a process interval: CPU share, event-loop delay, memory. */
export function describeProcess(stats: ProcessStats): string {
  const share = stats.wallMs > 0 ? (100 * stats.cpuMs) / stats.wallMs : Number.NaN;
  return (
    `cpu ${share.toFixed(0)}% of one core, event-loop lag p50 ${ms(stats.loopP50)} p99 ${ms(stats.loopP99)} ` +
    `max ${ms(stats.loopMax)}, rss ${stats.rssMb.toFixed(0)} MiB, heap ${stats.heapMb.toFixed(0)} MiB`
  );
}

/** A duration in ms with a precision that suits its size. */
export function ms(value: number): string {
  if (!Number.isFinite(value)) return '-';
  if (value >= 1000) return `${(value / 1000).toFixed(2)} s`;
  if (value >= 100) return `${value.toFixed(0)} ms`;
  return `${value.toFixed(1)} ms`;
}

/** A rate per second. */
export function perSecond(count: number, windowMs: number): string {
  return windowMs > 0 ? `${((count * 1000) / windowMs).toFixed(1)}/s` : '-';
}

/** Runs `task` over `items` with at most `limit` in flight. */
export async function pool<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>, stop: () => boolean): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (!stop()) {
      const index = next++;
      const item = items[index];
      if (index >= items.length || item === undefined) return;
      await task(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, () => worker()));
}

/**
 * Calls `fn` at `start + offset + k * period` (performance.now time) for k = 0, 1, ... while that
 * is before `end`. Times are absolute, so a late tick does not shift the later ones.
 * @returns a function that stops it
 */
export function pace(start: number, offset: number, period: number, end: number, fn: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let k = 0;
  const next = (): void => {
    const at = start + offset + k * period;
    if (at >= end) return;
    k += 1;
    timer = setTimeout(() => {
      fn();
      next();
    }, Math.max(0, at - performance.now()));
  };
  next();
  return () => clearTimeout(timer);
}

/** Resolves after `ms`. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

/** Waits for `promise` at most `ms`; the timer is cleared either way, so nothing is left behind. */
export async function within(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, Math.max(0, ms));
  });
  try {
    await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
