/**
 * Types of bench/aes-frames-data.mjs (the frames and per-frame work of the AES-ECB benches).
 * @module
 */
/** The SDK's AES-ECB functions of one build. */
export interface AesFunctions {
  aesEcbDecrypt(key: string, base64: string): string;
  aesEcbEncrypt(key: string, text: string): string;
}
/** `frames` agent texts (type 100, ~70 characters), each AES-ECB-encrypted under `key`. */
export function aesWire(frames: number, key: string): string[];
/** The read receipt (type 104) of a received text, as the SDK builds it. */
export function receipt(m: Record<string, unknown>): string;
/** Microseconds per frame on `nowUs`'s clock (see the module). */
export function runFrames(sdk: AesFunctions, key: string, wire: string[], withReceipt: boolean, nowUs: () => number): number;
/** The benches' rows: label and whether a receipt is encrypted per text. */
export const AES_ROWS: [string, boolean][];
/** Prints each row's least and median per build. */
export function printAesRows(results: Map<string, number[]>, builds: string[]): void;
