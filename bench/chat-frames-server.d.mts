/**
 * Types of bench/chat-frames-server.mjs (the loopback `ws` frame server of the chat-frame
 * benches), for bench/chat-browser.ts.
 * @module
 */

/** The frame server, in this process or in a child (each call then a message to it). */
export interface FrameServer {
  /** `ws://127.0.0.1:<port>/ws`. */
  url: string;
  /** Waits for the `nth` socket (1-based, in the order they connect) to connect. */
  socket(nth: number): Promise<void>;
  /** Writes pre-framed texts to the `nth` socket in one write; resolves with the server's `performance.now()` just before it. */
  push(nth: number, texts: readonly string[]): Promise<number>;
  /** Frames the `nth` socket has sent so far. */
  received(nth: number): Promise<number>;
  /** The server's `performance.now()` when the `nth` socket's last frame came (undefined before any). */
  lastAt(nth: number): Promise<number | undefined>;
  /** Closes the server (and ends the child). */
  close(): Promise<void>;
}

/** Starts the server in a child process of its own. */
export function startChild(): Promise<FrameServer>;
/** Starts the server in this process. */
export function startInProcess(): Promise<FrameServer>;
