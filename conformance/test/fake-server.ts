/**
 * A small stand-alone server of the protocol for the kit's own tests (not the reference server):
 * the key exchange, (enc) calls, connect with §3a identity, frames with acknowledgement, dedup
 * and history, typing signals (type 105: no conversations here, so never relayed, acknowledged or
 * stored). Each {@link Flaw} breaks one rule on purpose, so that the tests can show that the check
 * of that rule fails. No agents.
 * @module
 */

import {
  constants,
  createDecipheriv,
  createHash,
  createHmac,
  generateKeyPairSync,
  privateDecrypt,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { ecb, gcm, unEcb } from '../src/client/index.js';

/** A rule the fake server breaks on purpose. */
export type Flaw =
  /** Accepts a connect whatever its HMAC. */
  | 'accepts-bad-hmac'
  /** Stores and acknowledges every resend of an fp as a new message. */
  | 'no-dedup'
  /** Issues client secrets but never asks for them back. */
  | 'ignores-client-secret'
  /** Answers visitor-scoped calls for any visitor, bound or not. */
  | 'no-call-binding'
  /** Has no rate limit on texts. */
  | 'no-rate-limit'
  /** Stores and acknowledges a text whose `from` names another visitor. */
  | 'accepts-foreign-from'
  /** Sends every acknowledgement to every open socket (each under its own key). */
  | 'leaks-to-others'
  /** Sends plain JSON frames although its AES switch is on. */
  | 'plain-frames'
  /** Reads frames of any size. */
  | 'no-frame-limit'
  /** Stores blank texts. */
  | 'no-blank-check'
  /** Stores typing signals (type 105) in the sender's history. */
  | 'stores-typing'
  /** Relays a visitor's typing signal (type 105) to every other visitor's sockets. */
  | 'relays-typing';

/** The running fake server. */
export interface FakeServer {
  /** The host root. */
  url: string;
  /** The WebSocket endpoint (also in its public configuration). */
  socketUrl: string;
  /** `"<publicKey>,<secret>"`. */
  socketKey: string;
  /** Stops it (open sockets are dropped). */
  close(): Promise<void>;
}

interface KeySession {
  token: string;
  boundTo?: string;
}
interface Stored {
  type: number;
  from: string;
  to: string;
  fp: string;
  dataContent: string;
  createTime: number;
}

const MERCHANT = { mchId: 'M1001', platformId: 'P01' };
const ASCII32 = (): string => randomBytes(24).toString('base64').replace(/[+/]/g, 'x').slice(0, 32);
const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');

/**
 * Starts the fake server on a free loopback port.
 * @param flaws - the rules it breaks (none by default)
 */
export async function startFakeServer(flaws: readonly Flaw[] = []): Promise<FakeServer> {
  const has = (f: Flaw): boolean => flaws.includes(f);
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
  const hmacSecret = randomBytes(16).toString('hex');
  const socketKey = `${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')},${hmacSecret}`;
  const aesKey = ASCII32();
  const sessions = new Map<string, KeySession>();
  const pending = new Map<string, string>(); // requestKey -> token
  const secretHashes = new Map<string, string>(); // clientId -> sha256(secret)
  const messages = new Map<string, Stored[]>(); // clientId -> its conversation
  const sockets = new Map<string, Set<WebSocket>>();
  const socketKeys = new Map<WebSocket, Buffer>();
  const sent = new Map<string, number[]>(); // clientId -> times of accepted texts
  let lastTime = 0;
  const now = (): number => (lastTime = Math.max(Date.now(), lastTime + 1));

  const reply = (res: ServerResponse, code: number, data: unknown, message = code === 0 ? 'success' : 'refused'): void => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ code, message, data }));
  };
  const decode = (session: KeySession, value: string | undefined): Record<string, unknown> | undefined => {
    try {
      const parsed = JSON.parse(unEcb(Buffer.from(session.token), decodeURIComponent(value ?? ''))) as unknown;
      return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  };

  async function route(req: IncomingMessage, res: ServerResponse, baseUrl: string): Promise<void> {
    const url = new URL(req.url ?? '/', baseUrl);
    const name = url.pathname.replace(/^\/im\/api\/permit\//, '');
    if (url.pathname === '/im/api/public/config') return reply(res, 0, { baseUrl, socketUrl: `${baseUrl.replace(/^http/, 'ws')}/ws`, socketKey, aesSwitch: true });
    if (name === 'getServerTime') return reply(res, 0, Date.now());
    if (name === 'switchAES') return reply(res, 0, true);
    const requestKey = url.searchParams.get('requestKey') ?? '';
    if (name === 'getAesKey') {
      const masked = Buffer.from(aesKey).map((b, i) => b ^ requestKey.charCodeAt(i % 32));
      pending.set(requestKey, ASCII32());
      return reply(res, 0, Buffer.from(masked).toString('base64'));
    }
    if (name === 'getUserToken') {
      const token = pending.get(requestKey);
      if (!token) return reply(res, 1001, null);
      const saltKey = randomBytes(16).toString('hex');
      sessions.set(saltKey, { token });
      return reply(res, 0, { userToken: gcm(Buffer.from(aesKey), token), saltKey });
    }
    const session = sessions.get(String(req.headers['x-salt-key'] ?? ''));
    if (!session) return reply(res, 1002, null);
    let raw = url.searchParams.get('data') ?? undefined;
    if (req.method === 'POST') {
      let body = '';
      for await (const chunk of req) body += String(chunk);
      try {
        raw = (JSON.parse(body) as { data?: string }).data;
      } catch {
        return reply(res, 1001, null);
      }
    }
    const payload = decode(session, raw);
    if (!payload) return reply(res, 1001, null, 'bad payload');
    const named = String(payload['clientId'] ?? payload['from'] ?? '');
    if ((name === 'findMsgForCus' || name === 'createMsg') && !has('no-call-binding') && (session.boundTo === undefined || session.boundTo !== named)) return reply(res, 4003, null);
    if (name === 'getMerchantById' || name === 'checkPlatform') return reply(res, 0, { ...MERCHANT, name: 'Fake', enabled: true });
    if (name === 'createMsg') return reply(res, 0, payload);
    if (name === 'findMsgForCus') {
      const after = typeof payload['after'] === 'number' ? payload['after'] : undefined;
      const all = messages.get(named) ?? [];
      return reply(res, 0, { list: after === undefined ? all.slice(-100) : all.filter((m) => m.createTime > after), hasMore: false });
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 1003, message: 'not found', data: null }));
  }

  /** The connect of protocol §3 and §3a: the identity, or a close code. */
  function admit(params: string | null): { clientId: string; session: KeySession; secret?: string } | number {
    try {
      const { A, B } = JSON.parse(Buffer.from(params ?? '', 'base64').toString('utf8')) as { A: string; B: string };
      const padded = privateDecrypt({ key: privateKey, padding: constants.RSA_NO_PADDING }, Buffer.from(B, 'base64'));
      if (padded[0] !== 0 || padded[1] !== 2) return 4001;
      const K = Buffer.from(padded.subarray(padded.indexOf(0, 2) + 1).toString('utf8'), 'base64');
      const data = Buffer.from(A, 'base64');
      const decipher = createDecipheriv('aes-256-gcm', K, data.subarray(0, 12));
      decipher.setAuthTag(data.subarray(data.length - 16));
      const P = JSON.parse(Buffer.concat([decipher.update(data.subarray(12, data.length - 16)), decipher.final()]).toString('utf8')) as { d: Record<string, unknown>; u: string; t: string; s: string };
      const expected = createHmac('sha256', hmacSecret).update(`d=${JSON.stringify(P.d)}&t=${P.t}&u=${P.u}`).digest();
      if (!has('accepts-bad-hmac') && (P.s.length !== 64 || !timingSafeEqual(expected, Buffer.from(P.s, 'hex')))) return 4001;
      const session = sessions.get(P.t);
      if (!session) return 4001;
      const hash = secretHashes.get(P.u);
      const given = typeof P.d['clientSecret'] === 'string' ? P.d['clientSecret'] : '';
      if (hash !== undefined && !has('ignores-client-secret') && hash !== sha256(given)) return 4004;
      if (session.boundTo !== undefined && session.boundTo !== P.u) return 4004;
      session.boundTo = P.u;
      if (hash !== undefined) return { clientId: P.u, session };
      const secret = randomBytes(32).toString('base64url');
      secretHashes.set(P.u, sha256(secret));
      return { clientId: P.u, session, secret };
    } catch {
      return 4001;
    }
  }

  function serve(ws: WebSocket, clientId: string, session: KeySession, secret: string | undefined): void {
    const key = Buffer.from(session.token);
    const send = (to: WebSocket, m: Record<string, unknown>): void => {
      const json = JSON.stringify(m);
      to.send(has('plain-frames') ? json : ecb(socketKeys.get(to) ?? key, json));
    };
    socketKeys.set(ws, key);
    const refuse = (reason: string, fp: unknown): void => send(ws, { type: 500, from: 'system', to: clientId, dataContent: JSON.stringify({ reason, fp: typeof fp === 'string' ? fp : '' }) });
    const own = sockets.get(clientId) ?? new Set<WebSocket>();
    sockets.set(clientId, own.add(ws));
    ws.on('close', () => {
      own.delete(ws);
      socketKeys.delete(ws);
    });
    send(ws, { type: 60, from: 'system', to: clientId, sm: Date.now(), dataContent: JSON.stringify(secret === undefined ? {} : { clientSecret: secret }) });
    /** Type 105 (protocol §5a): a visitor here is in no conversation, so it reaches nobody; silently dropped. */
    const typing = (fp: unknown, dataContent: unknown): void => {
      if (typeof fp !== 'string' || typeof dataContent !== 'string') return;
      if (has('stores-typing')) {
        const conversation = messages.get(clientId) ?? [];
        messages.set(clientId, [...conversation, { type: 105, from: clientId, to: 'robot', fp, dataContent, createTime: now() }]);
      }
      if (has('relays-typing')) {
        for (const [other, theirs] of sockets) {
          if (other !== clientId) for (const socket of theirs) send(socket, { type: 105, from: clientId, to: other, fp: randomBytes(16).toString('hex'), dataContent });
        }
      }
    };
    ws.on('message', (data) => {
      let frame: Record<string, unknown>;
      try {
        frame = JSON.parse(unEcb(key, String(data))) as Record<string, unknown>;
      } catch {
        return refuse('bad-frame', '');
      }
      if (frame['type'] === 1) return send(ws, { type: 51, from: 'system', to: clientId, sm: Date.now(), dataContent: '{}' });
      const { fp, dataContent, from } = frame;
      if (from !== undefined && from !== clientId && !has('accepts-foreign-from')) return refuse('not-allowed', fp);
      if (frame['type'] === 105) return typing(fp, dataContent);
      if (frame['type'] !== 100 || typeof fp !== 'string' || typeof dataContent !== 'string') return refuse('bad-frame', fp);
      const conversation = messages.get(clientId) ?? [];
      messages.set(clientId, conversation);
      const known = conversation.find((m) => m.fp === fp);
      if (known && !has('no-dedup')) return send(ws, { ...known });
      if (dataContent.trim() === '' && !has('no-blank-check')) return refuse('blank', fp);
      const times = (sent.get(clientId) ?? []).filter((t) => t > Date.now() - 5000);
      if (times.length >= 10 && !has('no-rate-limit')) return refuse('too-frequent', fp);
      sent.set(clientId, [...times, Date.now()]);
      const stored: Stored = { type: 100, from: clientId, to: 'robot', fp, dataContent, createTime: now() };
      conversation.push(stored);
      for (const socket of has('leaks-to-others') ? socketKeys.keys() : own) send(socket, { ...stored });
    });
  }

  const server = createServer((req, res) => {
    void route(req, res, `http://127.0.0.1:${(server.address() as AddressInfo).port}`).catch(() => reply(res, 1000, null));
  });
  const wss = new WebSocketServer({ server, path: '/ws', maxPayload: has('no-frame-limit') ? 16 * 1024 * 1024 : 65_536 });
  wss.on('connection', (ws, req) => {
    ws.on('error', () => undefined); // an oversize frame: ws closes with 1009
    const admitted = admit(new URL(req.url ?? '/', 'http://x').searchParams.get('params'));
    if (typeof admitted === 'number') return ws.close(admitted, admitted === 4004 ? 'identity refused' : 'unauthorized');
    serve(ws, admitted.clientId, admitted.session, admitted.secret);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    socketUrl: `${url.replace(/^http/, 'ws')}/ws`,
    socketKey,
    close: () =>
      new Promise((resolve) => {
        for (const ws of wss.clients) ws.terminate();
        wss.close();
        server.close(() => resolve());
      }),
  };
}
