/**
 * What the checks share during one run: the target, key sessions and visitors made once and
 * reused (a run stays within the reference server's default per-address limits: about 6 key
 * sessions and 16 connects), and the sockets to close at the end.
 * @module
 */

import { randomBytes, randomUUID } from 'node:crypto';
import {
  connectUrl,
  enc,
  http,
  keyExchange,
  TestSocket,
  welcomeSecret,
  type ConnectForgery,
  type Envelope,
  type Msg,
  type ServerEndpoints,
  type Session,
} from './client/index.js';
import type { ResolvedOptions } from './options.js';
import { CheckFailure, ensure, show } from './types.js';

/** A visitor connected for the checks: its id, key session, socket and secret. */
export interface Visitor {
  /** The client id (`u`). */
  clientId: string;
  /** The key session bound to it. */
  session: Session;
  /** Its open socket. */
  socket: TestSocket;
  /** The welcome of its first connect. */
  welcome: Msg;
  /** The secret its first welcome carried (protocol §3a), if any. */
  secret: string | undefined;
}

/** How a connect that should be refused ended. */
export interface Refusal {
  /** The close code. */
  code: number;
  /** The close reason. */
  reason: string;
  /** Frames received before the close. */
  frames: Msg[];
}

/** The public configuration (docs/protocol.md §2), as answered. */
export type PublicConfig = Envelope<{ socketUrl?: unknown; socketKey?: unknown; aesSwitch?: unknown; baseUrl?: unknown } | null>;

/** The shared state of one run. */
export class CheckContext {
  /** The merchant and platform of every visitor (connect data and calls). */
  readonly where: { mchId: string; platformId: string };
  /** What the start-up checks found, step by step (protocol §1). */
  readonly startup: { requestKey?: string; aesKey?: Buffer; token?: string; saltKey?: string; aesSwitch?: boolean } = {};
  /** Values one check leaves for a later one. */
  readonly notes = new Map<string, unknown>();
  private readonly memo = new Map<string, Promise<unknown>>();
  private readonly sockets = new Set<TestSocket>();
  /** The public configuration's answer, once fetched. */
  publicConfig: PublicConfig | undefined;

  constructor(
    /** The run's options. */
    readonly options: ResolvedOptions,
  ) {
    this.where = { mchId: options.mchId, platformId: options.platformId };
  }

  /**
   * Something made once per run and shared by the checks that need it; when making it fails,
   * every check that asks for it fails with the reason.
   * @param key - its name in this run
   * @param what - what it is, for the failure message
   * @param make - makes it
   */
  shared<T>(key: string, what: string, make: () => Promise<T>): Promise<T> {
    let promise = this.memo.get(key) as Promise<T> | undefined;
    if (!promise) {
      promise = make().catch((error: unknown) => {
        throw new CheckFailure(`needs ${what}, which failed: ${error instanceof Error ? error.message : String(error)}`);
      });
      promise.catch(() => undefined); // awaited by every check that needs it
      this.memo.set(key, promise);
    }
    return promise;
  }

  /**
   * The socket URL and key: from the options, else from `GET /im/api/public/config`.
   * @throws CheckFailure when neither gives them
   */
  endpoints(): Promise<ServerEndpoints> {
    return this.shared('endpoints', 'the socket URL and key', async () => {
      const { baseUrl, socketUrl, socketKey } = this.options;
      if (socketUrl !== undefined && socketKey !== undefined) return { url: baseUrl, socketUrl, socketKey };
      const answer = await http<PublicConfig['data']>(`${baseUrl}/im/api/public/config`);
      this.publicConfig = answer.body;
      const data = answer.body.data;
      const discoveredUrl = socketUrl ?? data?.socketUrl;
      const discoveredKey = socketKey ?? data?.socketKey;
      if (typeof discoveredUrl !== 'string' || typeof discoveredKey !== 'string') {
        throw new Error(`GET /im/api/public/config answered ${show(answer.body)} (HTTP ${answer.status}); give --socket-url and --socket-key`);
      }
      return { url: baseUrl, socketUrl: discoveredUrl, socketKey: discoveredKey };
    });
  }

  /**
   * A key session, made once per name (protocol §1). `a` is assembled from the start-up checks
   * when they completed.
   * @param name - the session's name in this run
   */
  session(name: string): Promise<Session> {
    return this.shared(`session:${name}`, `key session ${name}`, async () => {
      const s = this.startup;
      if (name === 'a' && s.requestKey && s.aesKey && s.token && s.saltKey && s.aesSwitch !== undefined) {
        return { requestKey: s.requestKey, aesKey: s.aesKey, token: s.token, userKey: Buffer.from(s.token, 'utf8'), saltKey: s.saltKey, aesSwitch: s.aesSwitch };
      }
      return keyExchange(this.options.baseUrl);
    });
  }

  /**
   * A visitor made once per name: a new client id on key session `name`, connected and welcomed.
   * @param name - the visitor's name in this run (also its key session's)
   */
  visitor(name: string): Promise<Visitor> {
    return this.shared(`visitor:${name}`, `visitor ${name}`, async () => {
      const session = await this.session(name);
      const clientId = randomUUID();
      const socket = await this.connect(session, clientId, this.visitorData());
      const welcome = socket.log.find((m) => m.type === 60) as Msg;
      return { clientId, session, socket, welcome, secret: welcomeSecret(welcome) };
    });
  }

  /**
   * The connect data of a visitor of the target merchant.
   * @param extra - fields to add (`clientSecret`, ...)
   */
  visitorData(extra: Record<string, unknown> = {}): Record<string, unknown> {
    return { role: 'visitor', ...this.where, ...extra };
  }

  /**
   * Opens a tracked socket (closed at the end of the run).
   * @param url - the connect URL
   * @param session - the key session (decodes the frames)
   */
  async open(url: string, session: Session | null): Promise<TestSocket> {
    const socket = await TestSocket.open(url, session);
    this.sockets.add(socket);
    void socket.closed.then(() => this.sockets.delete(socket));
    return socket;
  }

  /**
   * Connects and waits for the welcome (type 60).
   * @param session - the key session
   * @param clientId - the client id
   * @param d - the connect data
   * @throws Error when the socket closes or no welcome comes in time
   */
  async connect(session: Session, clientId: string, d: Record<string, unknown>): Promise<TestSocket> {
    const { socketUrl, socketKey } = await this.endpoints();
    const socket = await this.open(connectUrl(socketUrl, socketKey, session.saltKey, clientId, d), session);
    await socket.next((m) => m.type === 60, this.options.timeoutMs);
    return socket;
  }

  /**
   * Connects again as `visitor` on its own key session, with its secret, and waits for the welcome.
   * @param visitor - the visitor
   */
  reconnect(visitor: Visitor): Promise<TestSocket> {
    const d = this.visitorData(visitor.secret === undefined ? {} : { clientSecret: visitor.secret });
    return this.connect(visitor.session, visitor.clientId, d);
  }

  /**
   * A connect that the server should refuse: how it ended. A welcome, or a socket still open
   * after the timeout, fails the check.
   * @param session - the key session
   * @param clientId - the client id
   * @param d - the connect data
   * @param forge - parts to break
   */
  async refused(session: Session, clientId: string, d: Record<string, unknown>, forge: ConnectForgery = {}): Promise<Refusal> {
    const { socketUrl, socketKey } = await this.endpoints();
    const socket = await this.open(connectUrl(socketUrl, socketKey, session.saltKey, clientId, d, forge), session);
    const welcomed = socket.next((m) => m.type === 60, this.options.timeoutMs).then(
      () => 'welcomed' as const,
      () => 'not welcomed' as const,
    );
    const outcome = await Promise.race([socket.closed, welcomed]);
    if (outcome === 'welcomed' || outcome === 'not welcomed') {
      await socket.close();
      throw new CheckFailure(outcome === 'welcomed' ? 'the connect was accepted (welcome, type 60) instead of refused' : `the socket was neither refused nor welcomed within ${this.options.timeoutMs} ms`);
    }
    return { ...outcome, frames: socket.log };
  }

  /**
   * An (enc) call.
   * @param session - the key session
   * @param method - GET or POST
   * @param name - the call's path under `/im/api/permit/`
   * @param payload - the payload
   */
  call<T = unknown>(session: Session, method: 'GET' | 'POST', name: string, payload: unknown): Promise<Envelope<T>> {
    return enc<T>(this.options.baseUrl, session, method, name, payload);
  }

  /**
   * A visitor's history (`findMsgForCus`), which must succeed.
   * @param session - the key session asking
   * @param clientId - the visitor named
   * @param extra - `after`, `before`, `size`
   * @throws CheckFailure when the call fails
   */
  async history(session: Session, clientId: string, extra: Record<string, unknown> = {}): Promise<Msg[]> {
    const answer = await this.call<{ list?: unknown }>(session, 'POST', 'findMsgForCus', { clientId, ...this.where, size: 100, ...extra });
    ensure(answer.code === 0 && Array.isArray(answer.data?.list), () => `findMsgForCus answered ${show(answer)}`);
    return answer.data.list as Msg[];
  }

  /** A fresh random salt key that names no key session. */
  unknownSaltKey(): string {
    return randomBytes(16).toString('hex');
  }

  /**
   * Waits `ms`.
   * @param ms - how long
   */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, ms));
  }

  /** Closes every socket still open. */
  async dispose(): Promise<void> {
    await Promise.all([...this.sockets].map((s) => Promise.race([s.close(), this.sleep(2000)])));
  }
}
