/**
 * The server's message clock: acceptance times that strictly increase, so that `before`/`after`
 * paging by `createTime` never skips or repeats a message.
 * @module
 */

/** A strictly increasing millisecond clock. */
export class MessageClock {
  private last: number;

  /**
   * @param last - the newest time already handed out (the newest stored `createTime`).
   * @param now - the wall clock (injectable for tests).
   */
  constructor(
    last: number,
    private readonly now: () => number = Date.now,
  ) {
    this.last = last;
  }

  /** The next acceptance time: the wall clock, or one past the previous time if that is not later. */
  next(): number {
    const t = Math.max(this.now(), this.last + 1);
    this.last = t;
    return t;
  }
}
