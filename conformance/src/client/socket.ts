/**
 * A raw protocol socket (protocol §3-§5): frames in and out, encrypted when the AES switch is on,
 * with a log of what arrived and waiters for what is to come.
 * @module
 */

import { randomUUID } from 'node:crypto';
import { WebSocket } from 'ws';
import { connectUrl } from './connect.js';
import { ecb, unEcb } from './crypto.js';
import type { Session } from './key-exchange.js';

/** A message as it came off the wire (JSON, decrypted when it was encrypted). */
export type Msg = Record<string, unknown> & { type: number };

/** How a frame travelled: plain JSON text, or AES-ECB of the JSON text. */
export type FrameEncoding = 'json' | 'aes';

/** How a socket closed. */
export interface CloseInfo {
  /** The close code (1006 when the connection dropped without a close frame). */
  code: number;
  /** The close reason. */
  reason: string;
}

/**
 * The client secrets held by {@link TestSocket.connect}, per `socketKey|clientId` (protocol §3a):
 * sent back as `d.clientSecret` on the next connects of that id.
 */
export const heldSecrets = new Map<string, string>();

/**
 * The `clientSecret` of a welcome (type 60), if it carries one.
 * @param welcome - the welcome frame
 */
export function welcomeSecret(welcome: Msg): string | undefined {
  try {
    const value = (JSON.parse(String(welcome.dataContent)) as { clientSecret?: unknown } | null)?.clientSecret;
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Parses a message's JSON `dataContent`.
 * @param m - the message
 * @throws SyntaxError when `dataContent` is not JSON
 */
export function content<T = Record<string, unknown>>(m: Msg): T {
  return JSON.parse(String(m.dataContent)) as T;
}

/**
 * A predicate: whether a message is a session event (type 300) named `event`.
 * @param event - the event's name (`created`, `queued`, `agent-joined`, ...)
 */
export function isEvent(event: string): (m: Msg) => boolean {
  return (m) => {
    if (m.type !== 300) return false;
    try {
      return content<{ event?: unknown }>(m).event === event;
    } catch {
      return false;
    }
  };
}

interface Waiter {
  pred: (m: Msg) => boolean;
  resolve: (m: Msg) => void;
  reject: (e: Error) => void;
}

/** A raw protocol socket with a message log and waiters. */
export class TestSocket {
  /** Every message received, in order. */
  readonly log: Msg[] = [];
  /** How each message of {@link TestSocket.log} travelled (same index). */
  readonly wire: FrameEncoding[] = [];
  /** Frames that neither parsed as JSON nor decrypted to JSON (dropped, as the protocol says). */
  readonly undecodable: string[] = [];
  /** Resolves when the socket closes. */
  readonly closed: Promise<CloseInfo>;
  private closeInfo: CloseInfo | undefined;
  private readonly waiters = new Set<Waiter>();

  private constructor(
    /** The underlying `ws` socket. */
    readonly ws: WebSocket,
    private readonly userKey: Buffer | null,
  ) {
    this.closed = new Promise((resolve) =>
      ws.on('close', (code, reason) => {
        this.closeInfo = { code, reason: reason.toString() };
        // `closed` settles before the waiters fail, so that a race of the two sees the close first
        resolve(this.closeInfo);
        for (const w of [...this.waiters]) w.reject(new Error(this.closedWhileWaiting()));
        this.waiters.clear();
      }),
    );
    ws.on('error', () => undefined);
    ws.on('message', (data) => this.receive(String(data)));
  }

  private receive(text: string): void {
    let msg: Msg;
    let encoding: FrameEncoding = 'json';
    try {
      msg = JSON.parse(text) as Msg;
    } catch {
      try {
        if (!this.userKey) throw new Error('no key');
        msg = JSON.parse(unEcb(this.userKey, text)) as Msg;
        encoding = 'aes';
      } catch {
        this.undecodable.push(text);
        return;
      }
    }
    if (typeof msg !== 'object' || msg === null) {
      this.undecodable.push(text);
      return;
    }
    this.log.push(msg);
    this.wire.push(encoding);
    for (const w of [...this.waiters]) {
      if (w.pred(msg)) {
        this.waiters.delete(w);
        w.resolve(msg);
      }
    }
  }

  private closedWhileWaiting(): string {
    const info = this.closeInfo;
    return `the socket closed (${info?.code ?? '?'} ${JSON.stringify(info?.reason ?? '')}); got types [${this.log.map((m) => m.type).join(',')}]`;
  }

  /**
   * Opens a socket to `url`: resolves once it is open, or once it is closed when the server refuses it
   * at once.
   * @param url - a connect URL ({@link connectUrl})
   * @param session - the key session (its AES switch and user key decode frames), or null
   * @throws Error when the server answers the upgrade with an HTTP error (e.g. 413)
   */
  static open(url: string, session: Pick<Session, 'aesSwitch' | 'userKey'> | null): Promise<TestSocket> {
    const ws = new WebSocket(url);
    const socket = new TestSocket(ws, session?.aesSwitch ? session.userKey : null);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(socket));
      ws.once('unexpected-response', (_req, res) => {
        reject(new Error(`unexpected response: the upgrade was answered HTTP ${res.statusCode ?? '?'}`));
        ws.terminate();
      });
      ws.once('close', () => resolve(socket));
    });
  }

  /**
   * Connects as a visitor or agent, like a well-behaved client (protocol §3a), and waits for the
   * welcome: the secret of a welcome is kept (per socket key and client id) and sent as
   * `d.clientSecret` on the next connects of that id. Refusal checks build their URL with
   * {@link connectUrl} and use {@link TestSocket.open}.
   * @param socketUrl - the WebSocket endpoint
   * @param socketKey - `"<publicKey>,<secret>"`
   * @param session - the key session
   * @param clientId - the client id (`u`)
   * @param d - the connect data
   * @param timeoutMs - how long to wait for the welcome
   * @throws Error when the socket closes or no welcome comes in time
   */
  static async connect(
    socketUrl: string,
    socketKey: string,
    session: Session,
    clientId: string,
    d: Record<string, unknown> = {},
    timeoutMs = 3000,
  ): Promise<TestSocket> {
    const held = d['role'] === 'agent' ? undefined : heldSecrets.get(`${socketKey}|${clientId}`);
    const data = held === undefined || 'clientSecret' in d ? d : { ...d, clientSecret: held };
    const socket = await TestSocket.open(connectUrl(socketUrl, socketKey, session.saltKey, clientId, data), session);
    const welcome = await socket.next((m) => m.type === 60, timeoutMs);
    const secret = welcomeSecret(welcome);
    if (secret !== undefined) heldSecrets.set(`${socketKey}|${clientId}`, secret);
    return socket;
  }

  /** Whether the socket is open. */
  get isOpen(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  /**
   * Sends a message (encrypted when the switch is on).
   * @param msg - the message's fields
   */
  send(msg: Record<string, unknown>): void {
    const json = JSON.stringify(msg);
    this.ws.send(this.userKey ? ecb(this.userKey, json) : json);
  }

  /**
   * Sends a content message with a new `fp`.
   * @param from - the sender's user id
   * @param type - the message type
   * @param dataContent - the content
   * @param extra - further fields (`to`, `isGroup`, ...)
   * @returns the message's `fp`
   */
  say(from: string, type: number, dataContent: string, extra: Record<string, unknown> = {}): string {
    const fp = randomUUID();
    this.send({ type, from, fp, dataContent, ...extra });
    return fp;
  }

  /**
   * The first message (already received or coming) matching `pred`, seen at or after index `from`.
   * @param pred - what to wait for
   * @param timeoutMs - how long to wait
   * @param from - the first index of {@link TestSocket.log} to look at
   * @throws Error when it does not come in time or the socket closes first
   */
  next(pred: (m: Msg) => boolean, timeoutMs = 3000, from = 0): Promise<Msg> {
    const seen = this.log.slice(from).find(pred);
    if (seen) return Promise.resolve(seen);
    if (this.closeInfo) return Promise.reject(new Error(this.closedWhileWaiting()));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`timed out after ${timeoutMs} ms; got types [${this.log.map((m) => m.type).join(',')}]`));
      }, timeoutMs);
      const waiter: Waiter = {
        pred,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      };
      this.waiters.add(waiter);
    });
  }

  /**
   * Resolves once no frame arrived for `ms`.
   * @param ms - the quiet time
   */
  async quiet(ms = 150): Promise<void> {
    let count = -1;
    while (count !== this.log.length) {
      count = this.log.length;
      await new Promise((r) => setTimeout(r, ms));
    }
  }

  /** Closes the socket; resolves with how it closed. */
  close(): Promise<CloseInfo> {
    if (!this.closeInfo) this.ws.close();
    return this.closed;
  }
}
