/**
 * Frame codec (protocol §4): JSON text, or AES-ECB under the user key when the switch is on.
 * @module
 */

import type { ClientFrame } from '../chat/messaging.js';
import type { WireMessage } from '../chat/wire.js';
import { aesEcbDecrypt, aesEcbEncrypt } from '../crypto.js';

/** Encodes a server message for one connection. */
export function encodeFrame(message: WireMessage, userKey: Buffer | null): string {
  const json = JSON.stringify(message);
  return userKey ? aesEcbEncrypt(userKey, json) : json;
}

function asFrame(value: unknown): ClientFrame | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const type = (value as { type?: unknown }).type;
  const n = typeof type === 'string' && /^\d{1,4}$/.test(type) ? Number(type) : type;
  if (typeof n !== 'number' || !Number.isInteger(n)) return undefined;
  return { ...(value as Record<string, unknown>), type: n };
}

/**
 * Decodes a client frame: JSON first, then AES-ECB under `userKey` when given.
 * @returns undefined when the frame neither parses nor decrypts to a message object.
 */
export function decodeFrame(text: string, userKey: Buffer | null): ClientFrame | undefined {
  try {
    return asFrame(JSON.parse(text));
  } catch {
    // not JSON: try the encrypted form
  }
  if (!userKey) return undefined;
  try {
    return asFrame(JSON.parse(aesEcbDecrypt(userKey, text.trim())));
  } catch {
    return undefined;
  }
}
