/**
 * The human-readable report: one line per check and a summary.
 * @module
 */

import type { CheckResult, ConformanceReport } from './types.js';

const MARK = { passed: '✓', failed: '✗', skipped: '-' } as const;

/**
 * One line for one check: `✓ id  title`, `✗ id  title — reason` or `- id  title (skipped: reason)`.
 * @param result - the check's result
 */
export function formatResult(result: CheckResult): string {
  const head = `${MARK[result.status]} ${result.id}  ${result.title}`;
  if (result.status === 'failed') return `${head} — ${result.reason ?? 'failed'}`;
  if (result.status === 'skipped') return `${head} (skipped: ${result.reason ?? 'no reason'})`;
  return `${head} (${result.durationMs} ms)`;
}

/**
 * The summary line: `N passed, N failed` (then the skipped ones and the time).
 * @param report - the run's report
 */
export function formatSummary(report: ConformanceReport): string {
  const skipped = report.skipped > 0 ? `, ${report.skipped} skipped` : '';
  return `${report.passed} passed, ${report.failed} failed${skipped} (${(report.durationMs / 1000).toFixed(1)} s)`;
}
