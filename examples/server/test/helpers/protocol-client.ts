/**
 * A test client written against the protocol documents with node:crypto only (not the SDK, not
 * the server's modules): the key exchange, (enc) calls, connect parameters and frames.
 * @module
 */

import {
  constants,
  createCipheriv,
  createDecipheriv,
  createHmac,
  createPublicKey,
  publicEncrypt,
  randomBytes,
  randomUUID,
} from 'node:crypto';
import { WebSocket } from 'ws';

/** A decoded envelope. */
export interface Envelope<T = unknown> {
  code: number;
  message: string;
  data: T;
}

/** The result of the key exchange (protocol §1). */
export interface Session {
  requestKey: string;
  aesKey: Buffer;
  token: string;
  userKey: Buffer;
  saltKey: string;
  aesSwitch: boolean;
}

/** AES-256-ECB/PKCS7, base64 out. */
export function ecb(key: Buffer, text: string): string {
  const c = createCipheriv('aes-256-ecb', key, null);
  return Buffer.concat([c.update(text, 'utf8'), c.final()]).toString('base64');
}

/** Reverses {@link ecb}. */
export function unEcb(key: Buffer, b64: string): string {
  const d = createDecipheriv('aes-256-ecb', key, null);
  return Buffer.concat([d.update(Buffer.from(b64, 'base64')), d.final()]).toString('utf8');
}

/** AES-256-GCM: base64(nonce || ct || tag). */
export function gcm(key: Buffer, text: string): string {
  const nonce = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, nonce);
  const ct = Buffer.concat([c.update(text, 'utf8'), c.final()]);
  return Buffer.concat([nonce, ct, c.getAuthTag()]).toString('base64');
}

/** Reverses {@link gcm}. */
export function unGcm(key: Buffer, b64: string): string {
  const data = Buffer.from(b64, 'base64');
  const d = createDecipheriv('aes-256-gcm', key, data.subarray(0, 12));
  d.setAuthTag(data.subarray(data.length - 16));
  return Buffer.concat([d.update(data.subarray(12, data.length - 16)), d.final()]).toString('utf8');
}

/** GET/POST JSON helper that returns status and body. */
export async function http<T = unknown>(
  url: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: Envelope<T> }> {
  const headers: Record<string, string> = { 'accept-language': 'zh', ...init.headers };
  let body: string | undefined;
  if (init.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.body);
  }
  const response = await fetch(url, { method: init.method ?? (body ? 'POST' : 'GET'), headers, ...(body ? { body } : {}) });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as Envelope<T> };
}

/** Runs the key exchange of protocol §1. */
export async function keyExchange(baseUrl: string): Promise<Session> {
  const requestKey = randomBytes(16).toString('hex');
  const time = await http<number>(`${baseUrl}/im/api/permit/getServerTime`);
  if (time.body.code !== 0) throw new Error('getServerTime failed');
  const aes = await http<string>(`${baseUrl}/im/api/permit/getAesKey?requestKey=${requestKey}`);
  const masked = Buffer.from(aes.body.data, 'base64');
  const aesKey = Buffer.alloc(masked.length);
  for (let i = 0; i < masked.length; i += 1) aesKey[i] = (masked[i] ?? 0) ^ requestKey.charCodeAt(i % 32);
  if (aesKey.length !== 32) throw new Error('Invalid key length. Key must be 256 bits (32 bytes).');
  const tok = await http<{ userToken: string; saltKey: string }>(`${baseUrl}/im/api/permit/getUserToken?requestKey=${requestKey}`);
  const token = unGcm(aesKey, tok.body.data.userToken);
  const sw = await http<boolean>(`${baseUrl}/im/api/permit/switchAES`);
  return { requestKey, aesKey, token, userKey: Buffer.from(token, 'utf8'), saltKey: tok.body.data.saltKey, aesSwitch: sw.body.data };
}

/** An (enc) permit call (protocol §2). */
export async function enc<T = unknown>(
  baseUrl: string,
  session: Session,
  method: 'GET' | 'POST',
  name: string,
  payload: unknown,
): Promise<Envelope<T>> {
  const value = encodeURIComponent(ecb(session.userKey, JSON.stringify(payload)));
  const headers = { 'x-salt-key': session.saltKey };
  const url = `${baseUrl}/im/api/permit/${name}`;
  const result =
    method === 'GET'
      ? await http<T>(`${url}?data=${value}`, { headers })
      : await http<T>(url, { method: 'POST', body: { data: value }, headers });
  return result.body;
}

/** Builds the connect URL of protocol §3. `forge` lets tests break one step. */
export function connectUrl(
  socketUrl: string,
  socketKey: string,
  saltKey: string,
  clientId: string,
  d: Record<string, unknown> = {},
  forge: { secret?: string; t?: string; A?: string; B?: string } = {},
): string {
  const [publicKey = '', secret = ''] = socketKey.split(',');
  const K = randomBytes(32);
  const keyString = K.toString('base64');
  const pub = createPublicKey({ key: Buffer.from(publicKey, 'base64'), format: 'der', type: 'spki' });
  const B = publicEncrypt({ key: pub, padding: constants.RSA_PKCS1_PADDING }, Buffer.from(keyString, 'utf8')).toString('base64');
  const t = forge.t ?? saltKey;
  const signed = `d=${JSON.stringify(d)}&t=${t}&u=${clientId}`;
  const s = createHmac('sha256', forge.secret ?? secret).update(signed).digest('hex');
  const A = gcm(K, JSON.stringify({ d, u: clientId, t, s }));
  const params = Buffer.from(JSON.stringify({ A: forge.A ?? A, B: forge.B ?? B })).toString('base64');
  return `${socketUrl}?params=${encodeURIComponent(params)}`;
}

/** The client secrets held by {@link TestSocket.connect}, per `socketKey|clientId`. */
export const heldSecrets = new Map<string, string>();

/** The `clientSecret` of a welcome (type 60), if it carries one. */
export function welcomeSecret(welcome: Msg): string | undefined {
  try {
    const value = (JSON.parse(String(welcome.dataContent)) as { clientSecret?: unknown }).clientSecret;
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A message as the test sees it. */
export type Msg = Record<string, unknown> & { type: number };

/** A raw protocol socket with a message log and waiters. */
export class TestSocket {
  readonly log: Msg[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters: { pred: (m: Msg) => boolean; resolve: (m: Msg) => void; from: number }[] = [];

  private constructor(
    readonly ws: WebSocket,
    private readonly userKey: Buffer | null,
  ) {
    this.closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    ws.on('error', () => undefined);
    ws.on('message', (data) => {
      const text = data.toString();
      let msg: Msg;
      try {
        msg = JSON.parse(text) as Msg;
      } catch {
        if (!userKey) throw new Error(`undecodable frame ${text}`);
        msg = JSON.parse(unEcb(userKey, text)) as Msg;
      }
      this.log.push(msg);
      for (const w of [...this.waiters]) {
        if (w.pred(msg)) {
          this.waiters.splice(this.waiters.indexOf(w), 1);
          w.resolve(msg);
        }
      }
    });
  }

  /** Opens a socket to `url` (resolves on open, or with the close when refused). */
  static open(url: string, session: Session | null): Promise<TestSocket> {
    const ws = new WebSocket(url);
    const socket = new TestSocket(ws, session?.aesSwitch ? session.userKey : null);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(socket));
      ws.once('unexpected-response', () => reject(new Error('unexpected response')));
      ws.once('close', () => resolve(socket));
    });
  }

  /**
   * Connects as a visitor or agent, like a well-behaved client (protocol §3a): the secret of a
   * welcome is kept (per socket key and client id) and sent as `d.clientSecret` on the next
   * connects of that id. Attacks build their URL with {@link connectUrl} and {@link TestSocket.open}.
   */
  static async connect(socketUrl: string, socketKey: string, session: Session, clientId: string, d: Record<string, unknown> = {}): Promise<TestSocket> {
    const held = d['role'] === 'agent' ? undefined : heldSecrets.get(`${socketKey}|${clientId}`);
    const data = held === undefined || 'clientSecret' in d ? d : { ...d, clientSecret: held };
    const socket = await TestSocket.open(connectUrl(socketUrl, socketKey, session.saltKey, clientId, data), session);
    const welcome = await socket.next((m) => m.type === 60);
    const secret = welcomeSecret(welcome);
    if (secret !== undefined) heldSecrets.set(`${socketKey}|${clientId}`, secret);
    return socket;
  }

  /** Sends a message (encrypted when the switch is on). */
  send(msg: Record<string, unknown>): void {
    const json = JSON.stringify(msg);
    this.ws.send(this.userKey ? ecb(this.userKey, json) : json);
  }

  /** Sends a content message and returns its fp. */
  say(from: string, type: number, dataContent: string, extra: Record<string, unknown> = {}): string {
    const fp = randomUUID();
    this.send({ type, from, fp, dataContent, ...extra });
    return fp;
  }

  /** The first message (already received or coming) matching `pred`, seen at or after index `from`. */
  next(pred: (m: Msg) => boolean, timeoutMs = 3000, from = 0): Promise<Msg> {
    const seen = this.log.slice(from).find(pred);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const waiter = { pred, resolve: (m: Msg) => { clearTimeout(timer); resolve(m); }, from };
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(new Error(`timed out waiting; got types ${this.log.map((m) => m.type).join(',')}`));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** Resolves once no frame arrived for `ms`. */
  async quiet(ms = 150): Promise<void> {
    let count = -1;
    while (count !== this.log.length) {
      count = this.log.length;
      await new Promise((r) => setTimeout(r, ms));
    }
  }

  /** Closes the socket. */
  close(): Promise<{ code: number; reason: string }> {
    this.ws.close();
    return this.closed;
  }
}

/** Parses a message's JSON dataContent. */
export function content<T = Record<string, unknown>>(m: Msg): T {
  return JSON.parse(String(m.dataContent)) as T;
}

/** Whether `m` is a session event named `event`. */
export function isEvent(event: string): (m: Msg) => boolean {
  return (m) => m.type === 300 && (JSON.parse(String(m.dataContent)) as { event?: string }).event === event;
}

/**
 * A key session bound to a visitor (protocol §3a): the key exchange, then one accepted connect
 * of `clientId` (its socket closed again). Visitor-scoped calls need such a session.
 */
export async function boundSession(
  server: { url: string; socketUrl: string; socketKey: string },
  clientId: string = randomUUID(),
  d: Record<string, unknown> = {},
): Promise<Session & { clientId: string }> {
  const session = await keyExchange(server.url);
  const socket = await TestSocket.connect(server.socketUrl, server.socketKey, session, clientId, d);
  await socket.close();
  return { ...session, clientId };
}
