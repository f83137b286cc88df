/**
 * Frames a client sends before its connect is admitted (admission waits on the services, so an SDK that
 * resends its whole outbox right after opening gets ahead of it). They are held, in order, and
 * handed to the connection once admitted. None is dropped silently: past
 * {@link EARLY_PAUSE_FRAMES} frames or {@link EARLY_PAUSE_BYTES} bytes the socket is not read
 * (TCP slows the sender down; what already arrived is kept), and a client that still gets past
 * {@link EARLY_MAX_FRAMES} or {@link EARLY_MAX_BYTES} (the rest of a read already under way) is
 * closed with 1013: it reconnects and resends what was not acknowledged.
 * @module
 */

import { TRY_AGAIN_LATER_CLOSE } from './close-codes.js';
import { frameBytes, type RawFrame } from './connection.js';

/** Held frames at which the socket is paused until admission. */
export const EARLY_PAUSE_FRAMES = 256;
/** Held bytes at which the socket is paused until admission. */
export const EARLY_PAUSE_BYTES = 256 * 1024;
/** Held frames past which the connection is closed with 1013 (try again later). */
export const EARLY_MAX_FRAMES = 4096;
/** Held bytes past which the connection is closed with 1013 (try again later). */
export const EARLY_MAX_BYTES = 2 * 1024 * 1024;

/** What the early buffer needs of its socket. */
export interface EarlySocket {
  /** Stops reading the socket. */
  pause(): void;
  /** Closes with a code and reason. */
  close(code: number, reason: string): void;
}

/** The limits of an {@link EarlyFrames} buffer (tests shrink them). */
export interface EarlyLimits {
  /** See {@link EARLY_PAUSE_FRAMES}. */
  pauseFrames: number;
  /** See {@link EARLY_PAUSE_BYTES}. */
  pauseBytes: number;
  /** See {@link EARLY_MAX_FRAMES}. */
  maxFrames: number;
  /** See {@link EARLY_MAX_BYTES}. */
  maxBytes: number;
}

/** The limits in force. */
export const EARLY_LIMITS: EarlyLimits = Object.freeze({ pauseFrames: EARLY_PAUSE_FRAMES, pauseBytes: EARLY_PAUSE_BYTES, maxFrames: EARLY_MAX_FRAMES, maxBytes: EARLY_MAX_BYTES });

/** The frames of one socket before its admission (see the module comment). */
export class EarlyFrames {
  private frames: [RawFrame, boolean][] = [];
  private bytes = 0;
  private open = true;

  /**
   * @param socket - the socket (paused when the buffer is large, closed past the hard bound)
   * @param limits - the limits; {@link EARLY_LIMITS} by default
   */
  constructor(
    private readonly socket: EarlySocket,
    private readonly limits: EarlyLimits = EARLY_LIMITS,
  ) {}

  /** How many frames are held. */
  get size(): number {
    return this.frames.length;
  }

  /** Holds one frame (a `message` listener: bound, so it can be passed as is). */
  readonly hold = (data: RawFrame, isBinary: boolean): void => {
    if (!this.open) return;
    this.frames.push([data, isBinary]);
    this.bytes += frameBytes(data);
    const { pauseFrames, pauseBytes, maxFrames, maxBytes } = this.limits;
    if (this.frames.length > maxFrames || this.bytes > maxBytes) {
      this.discard();
      this.socket.close(TRY_AGAIN_LATER_CLOSE, 'too many frames before admission');
      return;
    }
    if (this.frames.length >= pauseFrames || this.bytes >= pauseBytes) this.socket.pause();
  };

  /** Hands every held frame, in arrival order, to `receive`; later frames are not held. */
  handOver(receive: (data: RawFrame, isBinary: boolean) => void): void {
    const frames = this.frames;
    this.discard();
    for (const [data, isBinary] of frames) receive(data, isBinary);
  }

  /** Drops the held frames and holds no more (the connect was refused, or the socket closed). */
  discard(): void {
    this.open = false;
    this.frames = [];
    this.bytes = 0;
  }
}
