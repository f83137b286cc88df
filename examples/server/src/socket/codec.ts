/**
 * Frame codec (protocol §4): JSON text, or AES-ECB under the user key when the switch is on.
 * @module
 */

import type { ClientFrame } from '../chat/messaging.js';
import type { WireMessage } from '../chat/wire.js';
import type { FrameCipher } from './frame-cipher.js';

/** Encodes a server message for one connection: JSON, encrypted with the connection's cipher when the switch is on. */
export function encodeFrame(message: WireMessage, cipher: FrameCipher | null): string {
  const json = JSON.stringify(message);
  return cipher ? cipher.encrypt(json) : json;
}

function asFrame(value: unknown): ClientFrame | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const type = (value as { type?: unknown }).type;
  const n = typeof type === 'string' && /^\d{1,4}$/.test(type) ? Number(type) : type;
  if (typeof n !== 'number' || !Number.isInteger(n)) return undefined;
  return { ...(value as Record<string, unknown>), type: n };
}

/** Whether a frame's text can be a JSON object (base64 never starts with `{`), so that no frame costs a thrown parse error. */
function looksLikeObject(text: string): boolean {
  return /^\s*\{/.test(text);
}

/**
 * Decodes a client frame: a JSON object, or else AES-ECB with the connection's cipher when given.
 * @returns undefined when the frame neither parses nor decrypts to a message object.
 */
export function decodeFrame(text: string, cipher: FrameCipher | null): ClientFrame | undefined {
  if (looksLikeObject(text)) {
    try {
      return asFrame(JSON.parse(text));
    } catch {
      // not JSON after all: try the encrypted form (which fails too: base64 has no brace)
    }
  }
  if (!cipher) return undefined;
  try {
    return asFrame(JSON.parse(cipher.decrypt(text.trim())));
  } catch {
    return undefined;
  }
}
