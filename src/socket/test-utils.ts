/**
 * Test doubles for the socket layer. Not part of the public API.
 * @internal
 * @module
 */
import type { WebSocketLike } from '../options.js';

/**
 * A scripted WebSocket for unit tests: records what is sent and lets the test play the server.
 *
 * Every instance is kept in {@link FakeWebSocket.instances} (call {@link FakeWebSocket.reset} in
 * `beforeEach`). Unlike a browser socket it fires its events synchronously, and only when the
 * test calls {@link FakeWebSocket.open}, {@link FakeWebSocket.receive},
 * {@link FakeWebSocket.serverClose} or {@link FakeWebSocket.fail}; {@link FakeWebSocket.close}
 * (the client closing) also fires `onclose` synchronously.
 * @internal
 */
export class FakeWebSocket implements WebSocketLike {
  /** Every socket created since the last {@link FakeWebSocket.reset}, oldest first. */
  static instances: FakeWebSocket[] = [];

  /** Forgets every instance. */
  static reset(): void {
    FakeWebSocket.instances = [];
  }

  /** The newest instance, or undefined when none was created. */
  static get last(): FakeWebSocket | undefined {
    return FakeWebSocket.instances[FakeWebSocket.instances.length - 1];
  }

  /** The URL the socket was created with. */
  readonly url: string;
  /** 0 connecting, 1 open, 2 closing, 3 closed. */
  readyState = 0;
  /** The binary type set by the client (`blob` by default, as in browsers). */
  binaryType = 'blob';
  /** Every frame the client sent, in order. */
  readonly sent: string[] = [];
  /** The arguments of the client's `close()` call, once it closed the socket. */
  closedByClient: { code: number | undefined; reason: string | undefined } | null = null;
  /** Open handler. */
  onopen: ((event: unknown) => void) | null = null;
  /** Message handler. */
  onmessage: ((event: { data: unknown }) => void) | null = null;
  /** Close handler. */
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  /** Error handler. */
  onerror: ((event: unknown) => void) | null = null;

  /** @param url - the URL the client connects to */
  constructor(url: string) {
    this.url = url;
    FakeWebSocket.instances.push(this);
  }

  /** Records a frame; throws like a browser when the socket is not open. */
  send(data: string): void {
    if (this.readyState !== 1) throw new Error(`InvalidStateError: send() while readyState is ${this.readyState}`);
    this.sent.push(data);
  }

  /** The client closes the socket: records the call and fires `onclose` with its code. */
  close(code?: number, reason?: string): void {
    if (this.readyState >= 2) return;
    this.closedByClient = { code, reason };
    this.readyState = 3;
    this.onclose?.({ code: code ?? 1005, reason: reason ?? '' });
  }

  /** The server accepts the connection: `readyState` 1, `onopen` fires. */
  open(): void {
    this.readyState = 1;
    this.onopen?.({ type: 'open' });
  }

  /** The server sends a frame: `onmessage` fires with `{ data }`. */
  receive(data: unknown): void {
    this.onmessage?.({ data });
  }

  /** The server closes the connection: `readyState` 3, `onclose` fires with the code and reason. */
  serverClose(code = 1000, reason = ''): void {
    this.readyState = 3;
    this.onclose?.({ code, reason });
  }

  /** The connection fails like in a browser: `onerror` fires, then `onclose` with 1006. */
  fail(): void {
    this.onerror?.({ type: 'error' });
    this.readyState = 3;
    this.onclose?.({ code: 1006, reason: '' });
  }

  /** The sent frames parsed as JSON (for unencrypted frames). */
  sentJson(): unknown[] {
    return this.sent.map((frame) => JSON.parse(frame) as unknown);
  }
}

/**
 * A minimal window for the network rules: an `EventTarget` with `navigator.onLine`, and helpers
 * that flip it and dispatch `offline` / `online` like a browser.
 * @internal
 */
export class FakeNetwork extends EventTarget {
  /** Like `window.navigator`. */
  readonly navigator = { onLine: true };

  /** The browser goes offline: `navigator.onLine` false, then the `offline` event. */
  goOffline(): void {
    this.navigator.onLine = false;
    this.dispatchEvent(new Event('offline'));
  }

  /** The browser comes back online: `navigator.onLine` true, then the `online` event. */
  goOnline(): void {
    this.navigator.onLine = true;
    this.dispatchEvent(new Event('online'));
  }
}
