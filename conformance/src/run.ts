/**
 * Runs the checks against one server, one after the other, and reports what each found.
 * @module
 */

import { CHECKS } from './checks/index.js';
import { CheckContext } from './context.js';
import { resolveOptions, type ConformanceOptions } from './options.js';
import { CheckSkipped, type Check, type CheckResult, type ConformanceReport } from './types.js';

function failureText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s+/g, ' ').trim() || 'failed without a message';
}

async function runOne(check: Check, ctx: CheckContext, limitMs: number): Promise<CheckResult> {
  const started = performance.now();
  const result = (status: CheckResult['status'], reason?: string): CheckResult => ({
    id: check.id,
    rule: check.rule,
    title: check.title,
    status,
    ...(reason === undefined ? {} : { reason }),
    durationMs: Math.round(performance.now() - started),
  });
  if (check.needsAgent && ctx.options.agent === null) return result('skipped', 'no agent credentials (--no-agent)');
  if (check.needsMerchantSecret && ctx.options.merchantSecret === null) return result('skipped', 'no merchant secret (--merchant-secret)');
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check.run(ctx),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the check did not finish within ${limitMs} ms`)), limitMs);
      }),
    ]);
    return result('passed');
  } catch (error) {
    return error instanceof CheckSkipped ? result('skipped', error.message) : result('failed', failureText(error));
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Checks one server against the protocol: every check of {@link CHECKS}, in order.
 * @param options - the server's URL and what the checks need beyond it
 * @returns the report; it never throws for what the server does (a failed check is a result)
 * @throws Error only when the options are unusable (e.g. `baseUrl` is not an http(s) URL)
 * @example
 * ```ts
 * const report = await runConformance({ baseUrl: 'http://127.0.0.1:8080' });
 * if (report.failed > 0) process.exitCode = 1;
 * ```
 */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const resolved = resolveOptions(options);
  const ctx = new CheckContext(resolved);
  const limitMs = Math.max(30_000, resolved.timeoutMs * 4);
  const started = performance.now();
  const results: CheckResult[] = [];
  try {
    for (const check of CHECKS) {
      const result = await runOne(check, ctx, limitMs);
      results.push(result);
      options.onResult?.(result);
    }
  } finally {
    await ctx.dispose();
  }
  const socketUrl = await ctx.endpoints().then(
    (e) => e.socketUrl,
    () => undefined,
  );
  const count = (status: CheckResult['status']): number => results.filter((r) => r.status === status).length;
  return {
    baseUrl: resolved.baseUrl,
    ...(socketUrl === undefined ? {} : { socketUrl }),
    results,
    passed: count('passed'),
    failed: count('failed'),
    skipped: count('skipped'),
    durationMs: Math.round(performance.now() - started),
  };
}
