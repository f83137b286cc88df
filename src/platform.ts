/**
 * The platform's globals, looked up when a client is made (never at import time).
 * @module
 * @internal
 */
import type { DocumentLike, WebSocketConstructor, WindowLike } from './options.js';

/** The page's window, or null outside a browser. @internal */
export function globalWindow(): WindowLike | null {
  return typeof window === 'undefined' ? null : window;
}

/** The page's document, or null outside a browser. @internal */
export function globalDocument(): DocumentLike | null {
  return typeof document === 'undefined' ? null : document;
}

/** The global WebSocket, or a constructor that throws a clear error. @internal */
export function globalWebSocket(): WebSocketConstructor {
  const ctor = (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (ctor) return ctor;
  return class MissingWebSocket {
    constructor() {
      throw new Error('No WebSocket available: pass the `WebSocket` option (e.g. the `ws` package in Node).');
    }
  } as unknown as WebSocketConstructor;
}
