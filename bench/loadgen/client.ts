/**
 * One virtual client of the load generator: a key session, a connect (visitor with a new uuid,
 * or agent), the welcome, frames in and out, heartbeats on demand. Protocol §3a: the first
 * connect of a new `u` may carry a `clientSecret` in the welcome; it is kept (a reconnect would
 * send it), though the generator never reconnects an identity.
 * @module
 */

import { randomUUID } from 'node:crypto';
import { WebSocket } from 'ws';
import { connectUrl, decodeFrame, encodeFrame, keyExchange, type Frame, type ServerInfo, type SocketKey } from './protocol.js';

/** Heartbeat type (protocol §5). */
export const HEARTBEAT = 1;
/** Welcome type. */
export const WELCOME = 60;

/** Why a connect did not end in a welcome. */
export class ConnectFailed extends Error {
  override name = 'ConnectFailed';
}

/** Timings of one connect, ms. */
export interface ConnectTimes {
  /** The key exchange (HTTP). */
  keyExchangeMs: number;
  /** Socket open to welcome (the server's RSA, GCM, HMAC, store work). */
  socketMs: number;
}

/** A connected protocol client. */
export class VirtualClient {
  /** Frames received after the welcome go here. */
  onFrame: (frame: Frame, receivedAt: number) => void = () => undefined;
  /** Called once when the socket closes after the welcome. */
  onClose: (code: number) => void = () => undefined;
  /** The id the server knows this client by (`u`, or `agent:<account>`). */
  userId = '';
  /** The §3a secret from the welcome, when the server sent one. */
  clientSecret = '';
  private ws: WebSocket | undefined;
  private userKey: Buffer | null = null;

  constructor(
    private readonly info: ServerInfo,
    private readonly key: SocketKey,
    /** Connect data `d` (visitor `{}` or `{ role: 'agent', account, password }`). */
    private readonly data: Record<string, unknown>,
    /** The client id `u`; a new uuid per virtual client by default. */
    readonly clientId: string = randomUUID(),
  ) {}

  /** Runs the key exchange and the socket connect; resolves at the welcome. */
  async connect(timeoutMs: number): Promise<ConnectTimes> {
    const t0 = performance.now();
    const session = await keyExchange(this.info.url);
    const t1 = performance.now();
    this.userKey = this.info.aesSwitch ? session.userKey : null;
    const ws = new WebSocket(connectUrl(this.info.socketUrl, this.key, session.saltKey, this.clientId, this.data), { perMessageDeflate: false });
    this.ws = ws;
    ws.on('error', () => undefined);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        ws.terminate();
        reject(new ConnectFailed('welcome timeout'));
      }, timeoutMs);
      const onMessage = (raw: WebSocket.RawData): void => {
        const frame = decodeFrame(raw.toString(), this.userKey);
        if (frame?.type !== WELCOME) return;
        clearTimeout(timer);
        ws.off('message', onMessage);
        ws.off('close', onEarlyClose);
        this.userId = typeof frame.to === 'string' ? frame.to : this.clientId;
        try {
          const secret = (JSON.parse(String(frame.dataContent ?? '{}')) as { clientSecret?: unknown }).clientSecret;
          if (typeof secret === 'string') this.clientSecret = secret;
        } catch {
          // a welcome without JSON content carries no secret
        }
        ws.on('message', (data) => {
          const received = performance.now();
          const next = decodeFrame(data.toString(), this.userKey);
          if (next) this.onFrame(next, received);
        });
        ws.once('close', (code) => this.onClose(code));
        resolve();
      };
      const onEarlyClose = (code: number, reason: Buffer): void => {
        clearTimeout(timer);
        reject(new ConnectFailed(`closed ${code}${reason.length > 0 ? ` ${reason.toString()}` : ''}`));
      };
      ws.on('message', onMessage);
      ws.once('close', onEarlyClose);
    });
    return { keyExchangeMs: t1 - t0, socketMs: performance.now() - t1 };
  }

  /** Whether the socket is open. */
  get open(): boolean {
    return this.ws?.readyState === WebSocket.OPEN;
  }

  /** Sends a frame (encrypted when the switch is on); false when not open. */
  send(frame: Frame): boolean {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(encodeFrame(frame, this.userKey));
    return true;
  }

  /** Sends a heartbeat (type 1). */
  heartbeat(): void {
    this.send({ type: HEARTBEAT, from: this.userId, dataContent: '{}' });
  }

  /** Closes the socket (1000) and resolves when closed or after 2 s (then terminates). */
  close(): Promise<void> {
    const ws = this.ws;
    if (!ws || ws.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        ws.terminate();
        resolve();
      }, 2000);
      ws.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      ws.close(1000);
    });
  }
}
