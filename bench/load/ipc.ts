/**
 * The messages between the load bench and its child processes (the reference server or the bare
 * `ws` echo server), over Node's IPC channel.
 * @module
 */

import type { BenchServerInfo, BenchServerStats } from './server.js';

/** The environment variable that carries the server configuration to a `server` child (JSON). */
export const CHILD_CONFIG_VAR = 'KEFU_LOAD_SERVER_CONFIG';

/** What a child runs. */
export type ChildMode = 'server' | 'echo';

/** Parent to child. */
export type ToChild = { cmd: 'mark' } | { cmd: 'stats'; id: number } | { cmd: 'close' };

/** Child to parent. */
export type FromChild =
  | { kind: 'ready'; info: BenchServerInfo }
  | { kind: 'stats'; id: number; stats: BenchServerStats }
  | { kind: 'failed'; message: string };

/** Whether a value received over IPC is a {@link ToChild} message. */
export function isToChild(value: unknown): value is ToChild {
  const cmd = (value as { cmd?: unknown } | null)?.cmd;
  return (cmd === 'mark' || cmd === 'close' || cmd === 'stats') && (cmd !== 'stats' || typeof (value as { id?: unknown }).id === 'number');
}

/** Whether a value received over IPC is a {@link FromChild} message. */
export function isFromChild(value: unknown): value is FromChild {
  const kind = (value as { kind?: unknown } | null)?.kind;
  return kind === 'ready' || kind === 'stats' || kind === 'failed';
}
