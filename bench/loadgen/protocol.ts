/**
 * The client side of the wire protocol (docs/protocol.md §1-§4), written for the load generator
 * with node:crypto, node:http(s) and `ws` only (no SDK): the key exchange, the connect parameters
 * (RSA PKCS#1 v1.5 through `publicEncrypt`, AES-256-GCM, HMAC-SHA256) and frames (JSON, or
 * AES-256-ECB when the server's AES switch is on).
 * @module
 */

import { constants, createCipheriv, createDecipheriv, createHmac, createPublicKey, publicEncrypt, randomBytes, type KeyObject } from 'node:crypto';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/** Where and how to reach a server (its `/im/api/public/config`). */
export interface ServerInfo {
  /** Host root, `http://127.0.0.1:port` (or a balancer's URL). */
  url: string;
  /** `ws://.../ws`. */
  socketUrl: string;
  /** `"<publicKey>,<secret>"` (protocol §3). */
  socketKey: string;
  /** The AES switch (protocol §1.5). */
  aesSwitch: boolean;
}

/** One key session (protocol §1): what a client holds after the key exchange. */
export interface KeySession {
  /** Names the session (`t`, `X-Salt-Key`). */
  saltKey: string;
  /** The token's 32 UTF-8 bytes, the AES-ECB frame key. */
  userKey: Buffer;
}

/** A frame as JSON. */
export type Frame = Record<string, unknown> & { type: number };

interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}

/**
 * Kept-alive connections, as a browser keeps them for the two calls of a key exchange (and as
 * `fetch` did here before; node:http costs the generator about a third of fetch's CPU per call,
 * which leaves more of a shared machine to the server under test).
 */
const httpAgent = new HttpAgent({ keepAlive: true });
const httpsAgent = new HttpsAgent({ keepAlive: true });

/** The largest answer read (the key-exchange answers are a few hundred bytes). */
const MAX_ANSWER_BYTES = 1 << 20;

function get(url: string): Promise<{ status: number; text: string }> {
  const https = url.startsWith('https:');
  return new Promise((resolve, reject) => {
    const call = (https ? httpsRequest : httpRequest)(url, { agent: https ? httpsAgent : httpAgent, headers: { 'accept-language': 'en' } }, (response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_ANSWER_BYTES) response.destroy(new Error(`answer over ${MAX_ANSWER_BYTES} bytes from ${new URL(url).pathname}`));
        else chunks.push(chunk);
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    call.on('error', reject);
    call.end();
  });
}

async function getData<T>(url: string): Promise<T> {
  const { status, text } = await get(url);
  if (status !== 200) throw new Error(`HTTP ${status} from ${new URL(url).pathname}`);
  const body = JSON.parse(text) as Envelope<T>;
  if (body.code !== 0) throw new Error(`code ${body.code} from ${new URL(url).pathname}: ${body.message}`);
  return body.data;
}

/** Reads the server's public configuration (socket URL, socket key, AES switch). */
export async function fetchServerInfo(url: string): Promise<ServerInfo> {
  const root = url.replace(/\/+$/, '');
  const data = await getData<{ socketUrl: string; socketKey: string; aesSwitch: boolean }>(`${root}/im/api/public/config`);
  if (typeof data.socketKey !== 'string' || !data.socketKey.includes(',')) throw new Error('the server config has no socketKey');
  return { url: root, socketUrl: data.socketUrl, socketKey: data.socketKey, aesSwitch: data.aesSwitch === true };
}

function gcmDecrypt(key: Buffer, base64: string): string {
  const data = Buffer.from(base64, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, 12));
  decipher.setAuthTag(data.subarray(data.length - 16));
  return Buffer.concat([decipher.update(data.subarray(12, data.length - 16)), decipher.final()]).toString('utf8');
}

function gcmEncrypt(key: Buffer, text: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64');
}

/**
 * The key exchange of protocol §1 without the optional calls: `getAesKey` and `getUserToken`
 * (server time and the AES switch are read once per worker, not per client).
 */
export async function keyExchange(url: string): Promise<KeySession> {
  const requestKey = randomBytes(16).toString('hex');
  const masked = Buffer.from(await getData<string>(`${url}/im/api/permit/getAesKey?requestKey=${requestKey}`), 'base64');
  if (masked.length !== 32) throw new Error('Invalid key length. Key must be 256 bits (32 bytes).');
  const aesKey = Buffer.alloc(32);
  for (let i = 0; i < 32; i += 1) aesKey[i] = (masked[i] ?? 0) ^ requestKey.charCodeAt(i % requestKey.length);
  const token = await getData<{ userToken: string; saltKey: string }>(`${url}/im/api/permit/getUserToken?requestKey=${requestKey}`);
  const plain = gcmDecrypt(aesKey, token.userToken);
  return { saltKey: token.saltKey, userKey: Buffer.from(plain, 'utf8') };
}

/** The socket key split and the RSA public key parsed once. */
export interface SocketKey {
  /** The RSA public key. */
  rsa: KeyObject;
  /** The HMAC secret. */
  secret: string;
}

/** Parses `"<publicKey>,<secret>"`. */
export function parseSocketKey(socketKey: string): SocketKey {
  const comma = socketKey.indexOf(',');
  const rsa = createPublicKey({ key: Buffer.from(socketKey.slice(0, comma), 'base64'), format: 'der', type: 'spki' });
  return { rsa, secret: socketKey.slice(comma + 1) };
}

/** The connect URL of protocol §3 for client id `u` with connect data `d` on key session `t`. */
export function connectUrl(socketUrl: string, key: SocketKey, saltKey: string, u: string, d: Record<string, unknown>): string {
  const k = randomBytes(32);
  const b = publicEncrypt({ key: key.rsa, padding: constants.RSA_PKCS1_PADDING }, Buffer.from(k.toString('base64'), 'utf8')).toString('base64');
  const s = createHmac('sha256', key.secret).update(`d=${JSON.stringify(d)}&t=${saltKey}&u=${u}`, 'utf8').digest('hex');
  const a = gcmEncrypt(k, JSON.stringify({ d, u, t: saltKey, s }));
  const params = Buffer.from(JSON.stringify({ A: a, B: b }), 'utf8').toString('base64');
  return `${socketUrl}?params=${encodeURIComponent(params)}`;
}

/** A client frame on the wire: JSON, or AES-ECB of it when `userKey` is given (switch on). */
export function encodeFrame(frame: Frame, userKey: Buffer | null): string {
  const json = JSON.stringify(frame);
  if (!userKey) return json;
  const cipher = createCipheriv('aes-256-ecb', userKey, null);
  return Buffer.concat([cipher.update(json, 'utf8'), cipher.final()]).toString('base64');
}

/** A server frame: JSON first, else AES-ECB (protocol §4); undefined when neither works. */
export function decodeFrame(text: string, userKey: Buffer | null): Frame | undefined {
  let json = text;
  if (!text.startsWith('{')) {
    if (!userKey) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-ecb', userKey, null);
      json = Buffer.concat([decipher.update(Buffer.from(text, 'base64')), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'number' ? (value as Frame) : undefined;
  } catch {
    return undefined;
  }
}
