/**
 * Reading the server's answer to a frame: its acknowledgement (same `fp`) or its refusal
 * (type 500 naming the `fp` in `dataContent`).
 * @module
 */

import type { Msg, TestSocket } from '../client/index.js';

/** A refusal's `dataContent`: `{ reason, fp }`. */
export interface RefusalContent {
  /** Why (`blank`, `too-frequent`, `not-allowed`, ...). */
  reason?: unknown;
  /** The refused message's fp. */
  fp?: unknown;
}

/**
 * The content of a refusal (type 500), or undefined for any other message.
 * @param m - a message
 */
export function refusalOf(m: Msg): RefusalContent | undefined {
  if (m.type !== 500) return undefined;
  try {
    const parsed = JSON.parse(String(m.dataContent)) as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as RefusalContent) : {};
  } catch {
    return {};
  }
}

/**
 * Whether `m` answers the frame `fp`: its acknowledgement or a refusal naming it.
 * @param fp - the frame's fp
 */
export function answers(fp: string): (m: Msg) => boolean {
  return (m) => (m.type !== 500 && m.fp === fp) || refusalOf(m)?.fp === fp;
}

/**
 * The server's answer to the frame `fp`, received at or after index `from`.
 * @param socket - the sender's socket
 * @param fp - the frame's fp
 * @param timeoutMs - how long to wait
 * @param from - the first log index to look at
 */
export function answerTo(socket: TestSocket, fp: string, timeoutMs: number, from = 0): Promise<Msg> {
  return socket.next(answers(fp), timeoutMs, from);
}
