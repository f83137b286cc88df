/**
 * One write to the kernel per socket per event-loop turn: the first frame written to a socket in
 * a turn corks its TCP stream, and the turn's check phase (`setImmediate`) uncorks it, so every
 * frame written meanwhile (the upgrade's 101, the welcome and the session's first frames of a
 * connect; the acknowledgements and deliveries of all the frames read in one poll phase) leaves
 * in one `writev`. Frames keep their order and stay separate WebSocket frames; only the
 * system calls are shared. A socket that ends or is destroyed meanwhile flushes or drops its
 * buffer as it would anyway (`end()` uncorks; an uncork after `destroy()` does nothing).
 * @module
 */

/** The part of a stream a batch needs (a `net.Socket` has it). */
export interface Corkable {
  /** Holds writes in the stream's buffer. */
  cork(): void;
  /** Writes what {@link Corkable.cork} held, in one call when the stream supports it. */
  uncork(): void;
}

/** Schedules the flush after the current turn's I/O callbacks and microtasks; `setImmediate` by default. */
export type FlushScheduler = (flush: () => void) => void;

const afterThisTurn: FlushScheduler = (flush) => {
  setImmediate(flush);
};

/** Batches a socket's writes of one event-loop turn (see the module comment). */
export class WriteBatch {
  private held = false;

  /**
   * @param stream - the socket's TCP stream
   * @param schedule - when the held writes leave (tests inject it)
   */
  constructor(
    private readonly stream: Corkable,
    private readonly schedule: FlushScheduler = afterThisTurn,
  ) {}

  /** Call before each write: the first one of a turn corks the stream and schedules the flush. */
  hold(): void {
    if (this.held) return;
    this.held = true;
    this.stream.cork();
    this.schedule(this.flush);
  }

  /** Whether writes are held now (a flush is scheduled). */
  get holding(): boolean {
    return this.held;
  }

  private readonly flush = (): void => {
    this.held = false;
    this.stream.uncork();
  };
}
