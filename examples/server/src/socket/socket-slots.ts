/**
 * Socket slots: an identity holds at most `MAX_SOCKETS_PER_IDENTITY` open sockets. A connect takes
 * a slot before admission does any work, and gives it back when its socket closes (or when the
 * connect is refused after all). Taking is one atomic step, so two connects racing for the last
 * slot cannot both get it.
 *
 * A node alone counts here, in memory ({@link LocalSocketSlots}); in a cluster the slots are
 * counted for every node at once in Redis (`cluster/redis-socket-slots.ts`).
 * @module
 */

/** A slot taken for one socket; {@link SocketSlot.release} gives it back (once; later calls do nothing). */
export interface SocketSlot {
  /** Gives the slot back: the socket closed, or the connect was refused after taking it. */
  release(): void;
}

/** Where the slots of every identity are counted. */
export interface SocketSlots {
  /**
   * Takes one of the identity's slots, or answers undefined when all of them are held (the
   * connect is then refused with 4005).
   */
  take(userId: string): Promise<SocketSlot | undefined>;
}

/** The slots of a node alone: a count per identity, kept in this process. */
export class LocalSocketSlots implements SocketSlots {
  private readonly held = new Map<string, number>();

  /** @param max - slots per identity (`MAX_SOCKETS_PER_IDENTITY`) */
  constructor(private readonly max: number) {}

  /** {@inheritDoc SocketSlots.take} */
  take(userId: string): Promise<SocketSlot | undefined> {
    return Promise.resolve(this.takeNow(userId));
  }

  /** {@link LocalSocketSlots.take} without the promise (the Redis slots fall back on it). */
  takeNow(userId: string): SocketSlot | undefined {
    const count = this.held.get(userId) ?? 0;
    if (count >= this.max) return undefined;
    this.held.set(userId, count + 1);
    return once(() => {
      const left = (this.held.get(userId) ?? 1) - 1;
      if (left <= 0) this.held.delete(userId);
      else this.held.set(userId, left);
    });
  }

  /** How many slots `userId` holds. */
  holding(userId: string): number {
    return this.held.get(userId) ?? 0;
  }
}

/** A slot whose release runs `give` once. */
export function once(give: () => void): SocketSlot {
  let released = false;
  return {
    release(): void {
      if (released) return;
      released = true;
      give();
    },
  };
}
