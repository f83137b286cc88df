/**
 * `@kefu-im/sdk/protocol`: the wire protocol's building blocks, for bots, servers and tests that
 * speak the protocol without an `ImClient`: the crypto primitives, the key obfuscation of the
 * start-up exchange, the socket connect parameters and the frame codec.
 * @module
 */
// Crypto
import * as aesEcbModule from './crypto/aes-ecb.js';
import { provideAesEcb } from './crypto/load-aes-ecb.js';

// The frame codec below encrypts with what is loaded: here, everything is loaded up front.
provideAesEcb(aesEcbModule);

export { aesEcbDecrypt, aesEcbEncrypt, createPrefixedEcb, DECRYPT_ERROR, INVALID_KEY_LENGTH } from './crypto/aes-ecb.js';
export type { PrefixedEcb } from './crypto/aes-ecb.js';
export { gcmDecrypt, gcmEncrypt } from './crypto/aes-gcm.js';
export { rsaEncrypt, RSA_ENCRYPT_ERROR } from './crypto/rsa.js';
export { hmacSha256Hex } from './crypto/hmac.js';
export { NO_RANDOM_ERROR, randomBytes, randomHex, randomUuid } from './crypto/random.js';
export { obscureAesKey, revealAesKey } from './crypto/key-obfuscation.js';
export { base64ToBytes, base64UrlDecode, base64UrlEncode, bytesToBase64, bytesToHex, utf8Decode, utf8Encode } from './crypto/encoding.js';


// Socket connect parameters (protocol §3) and frames (protocol §4)
export { buildConnectParams, buildSocketUrl, parseSocketKey } from './socket/connect-params.js';
export { signConnectPayload } from './socket/connect-signature.js';
export type { ConnectParams, ConnectParamsInput, ConnectSignInput, SocketKeyParts } from './socket/connect-params.js';
export { decodeFrame, encodeFrame, FrameError } from './socket/frame-codec.js';
export type { DecodedFrame } from './socket/frame-codec.js';
