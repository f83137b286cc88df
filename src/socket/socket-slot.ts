/**
 * The one socket of a {@link Connection}: attaching its handlers, sending with the frame limit,
 * and dropping it so that a replaced socket's late events do nothing.
 * @module
 * @internal
 */
import { CloseCode } from '../codes.js';
import type { WebSocketLike } from '../options.js';

/** The close code reported when a socket errored (the browser's "abnormal closure"). */
const ABNORMAL_CLOSE = CloseCode.Abnormal;

const noop = (): void => undefined;

/** Wraps any thrown value in an Error. @internal */
export function toError(value: unknown, fallback: string): Error {
  if (value instanceof Error) return value;
  return new Error(value === undefined ? fallback : `${fallback}: ${String(value)}`);
}

/** What the slot tells its connection about the current socket (never about a replaced one). */
export interface SocketSlotHandlers {
  /** The socket opened. */
  open(socket: WebSocketLike): void;
  /** A frame arrived (`event.data`). */
  frame(data: unknown): void;
  /** The socket closed (or errored: code 1006, reason `error`). */
  close(code: number, reason: string): void;
  /** The socket reported an error (a close follows, unless the handler dropped the socket). */
  error(error: Error): void;
}

/**
 * Holds at most one socket. Events of a socket that is no longer current, or while `isLive()` is
 * false (the connection was destroyed), are ignored.
 * @internal
 */
export class SocketSlot {
  private socket: WebSocketLike | null = null;
  private detach: (() => void) | null = null;

  /**
   * @param handlers - told about the current socket's events
   * @param isLive - false once the owner is destroyed
   */
  constructor(
    private readonly handlers: SocketSlotHandlers,
    private readonly isLive: () => boolean,
  ) {}

  /** The current socket, or null. */
  get current(): WebSocketLike | null {
    return this.socket;
  }

  /**
   * Makes `socket` the current one (binary frames as ArrayBuffer) and listens to it.
   * @param socket - a new socket
   */
  attach(socket: WebSocketLike): void {
    Reflect.set(socket, 'binaryType', 'arraybuffer');
    const h = this.handlers;
    const current = (): boolean => this.socket === socket && this.isLive();
    socket.onopen = () => {
      if (current()) h.open(socket);
    };
    socket.onmessage = (event) => {
      if (current()) h.frame(event?.data);
    };
    socket.onclose = (event) => {
      if (current()) h.close(event?.code ?? ABNORMAL_CLOSE, event?.reason ?? '');
    };
    socket.onerror = (event) => {
      if (!current()) return;
      const inner: unknown = typeof event === 'object' && event !== null ? Reflect.get(event, 'error') : undefined;
      h.error(inner instanceof Error ? inner : new Error('WebSocket error'));
      if (current()) h.close(ABNORMAL_CLOSE, 'error');
    };
    this.socket = socket;
    this.detach = () => {
      // No-op handlers rather than null: the `ws` package throws on an 'error' nobody listens to.
      socket.onopen = noop;
      socket.onmessage = noop;
      socket.onclose = noop;
      socket.onerror = noop;
    };
  }

  /**
   * Sends a text frame on the open socket.
   * @param text - the frame
   * @param maxFrameSize - the largest frame, UTF-8 bytes
   * @param report - told why a frame was not sent (not a string, too large, the socket threw)
   * @returns true when handed to the socket
   */
  send(text: string, maxFrameSize: number, report: (error: Error) => void): boolean {
    const socket = this.socket;
    if (!socket || socket.readyState !== 1) return false;
    if (typeof text !== 'string') {
      report(new TypeError(`Connection.send: a frame must be a string, got ${typeof text}.`));
      return false;
    }
    if (text.length * 3 > maxFrameSize) {
      const size = new TextEncoder().encode(text).length;
      if (size > maxFrameSize) {
        report(new RangeError(`Frame of ${size} bytes exceeds the maximum of ${maxFrameSize} bytes.`));
        return false;
      }
    }
    try {
      socket.send(text);
      return true;
    } catch (error) {
      report(toError(error, 'WebSocket send failed'));
      return false;
    }
  }

  /**
   * Detaches and closes the current socket, if any.
   * @param code - the close code to send
   * @param reason - the close reason
   * @returns whether there was one
   */
  drop(code: number, reason: string): boolean {
    const socket = this.socket;
    if (!socket) return false;
    this.socket = null;
    this.detach?.();
    this.detach = null;
    try {
      if (socket.readyState < 2) socket.close(code, reason);
    } catch {
      // Closing a socket that is already going away may throw; nothing is left to do.
    }
    return true;
  }
}
