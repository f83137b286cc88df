/**
 * The kit's vocabulary: checks, their results and the report.
 * @module
 */

import type { CheckContext } from './context.js';

/** How a check ended. */
export type CheckStatus = 'passed' | 'failed' | 'skipped';

/** One check of the kit: a rule of the protocol, tried against the server. */
export interface Check {
  /** A stable id, `<section>.<rule>` (e.g. `identity.missing-secret`). */
  readonly id: string;
  /** Where the rule is written (e.g. `protocol §3a.2`). */
  readonly rule: string;
  /** What the server must do, as one sentence. */
  readonly title: string;
  /** Whether the check needs agent credentials (skipped without them). */
  readonly needsAgent?: boolean;
  /** Whether the check needs the merchant's identity-token secret (skipped without `--merchant-secret`). */
  readonly needsMerchantSecret?: boolean;
  /**
   * Tries the rule: resolves when the server follows it, throws a
   * {@link CheckFailure} (or any error) saying what it did instead, or a {@link CheckSkipped}.
   */
  run(ctx: CheckContext): Promise<void>;
}

/** The outcome of one check. */
export interface CheckResult {
  /** The check's id. */
  id: string;
  /** Where the rule is written. */
  rule: string;
  /** What the server must do. */
  title: string;
  /** Passed, failed or skipped. */
  status: CheckStatus;
  /** Why it failed or was skipped. */
  reason?: string;
  /** How long it took (ms). */
  durationMs: number;
}

/** What a run found. */
export interface ConformanceReport {
  /** The server's host root. */
  baseUrl: string;
  /** The WebSocket endpoint used (discovered or given), when known. */
  socketUrl?: string;
  /** Every check's outcome, in the order they ran. */
  results: CheckResult[];
  /** How many passed. */
  passed: number;
  /** How many failed. */
  failed: number;
  /** How many were skipped. */
  skipped: number;
  /** How long the whole run took (ms). */
  durationMs: number;
}

/** A check's failure: the server did not follow the rule. */
export class CheckFailure extends Error {
  override readonly name = 'CheckFailure';
}

/** A check that could not be tried here (e.g. no agent credentials). */
export class CheckSkipped extends Error {
  override readonly name = 'CheckSkipped';
}

/**
 * Fails the check with `message` unless `condition` holds.
 * @param condition - what must hold
 * @param message - what the server did instead
 * @throws CheckFailure when `condition` is falsy
 */
export function ensure(condition: unknown, message: string | (() => string)): asserts condition {
  if (!condition) throw new CheckFailure(typeof message === 'string' ? message : message());
}

/**
 * A value as short JSON for a failure message (at most 160 characters).
 * @param value - anything
 */
export function show(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value, (_k, v: unknown) => (Buffer.isBuffer(v) ? '<bytes>' : v)) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}
