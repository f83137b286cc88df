/**
 * The rule of the `message` event: one event per message (`fp`).
 * @module
 * @internal
 */
import type { StoredMessage } from './types.js';

/**
 * Whether the `message` event has told of a held message already: every held message has been,
 * but one's own text that the server has not confirmed yet (pending or failed), which is told once
 * it is (its acknowledgement, or the same `fp` found by a catch-up).
 * @param held - the message held under the `fp`, if any
 * @internal
 */
export function toldOf(held: StoredMessage | undefined): boolean {
  return held !== undefined && held.sendState !== 'pending' && held.sendState !== 'failed';
}
