/**
 * Socket frame encoding and decoding (protocol §4 "Frames"), as `@kefu-im/sdk/protocol` offers
 * them. The client loads the two halves apart: `frame-encode.ts` at start-up, `frame-decode.ts`
 * with the socket stack.
 * @module
 */
export { encodeFrame, FrameError } from './frame-encode.js';
export type { DecodedFrame } from './frame-encode.js';
export { decodeFrame } from './frame-decode.js';
