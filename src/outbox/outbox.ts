/**
 * Delivery bookkeeping for outgoing messages (protocol §4 "Delivery").
 * @module
 */
import type { ChatMessage } from '../messages/types.js';

/**
 * The messages sent on the socket and not yet acknowledged by the server, in the order they were
 * added.
 *
 * The server acknowledges a message by echoing it back with the same `fp`
 * ({@link Outbox.ack}); a refusal names the `fp` it refused ({@link Outbox.fail}). What is still
 * {@link Outbox.pending} after a reconnect is sent again: the server keeps one message per `fp`,
 * so a resend never duplicates a message.
 */
export class Outbox {
  private readonly items = new Map<string, ChatMessage>();

  /** @param onSettle - called with the `fp` of every message acknowledged or failed */
  constructor(private readonly onSettle: (fp: string) => void = () => undefined) {}

  /**
   * Records a message as pending. Adding an `fp` that is already pending replaces the message but
   * keeps its original place in the order.
   * @param message - the message as sent; it must carry its `fp`
   * @throws TypeError when `fp` is missing or not a non-empty string
   */
  add(message: ChatMessage & { fp: string }): void {
    const fp: unknown = message?.fp;
    if (typeof fp !== 'string' || fp === '') {
      throw new TypeError('Outbox.add: the message needs a non-empty string fp.');
    }
    this.items.set(fp, message);
  }

  /**
   * The server echoed the message back: it is delivered and no longer pending.
   * @returns the pending message, or undefined when `fp` was not pending
   */
  ack(fp: string): ChatMessage | undefined {
    return this.take(fp);
  }

  /**
   * The message was refused or abandoned: it is no longer pending and is not resent.
   * @returns the pending message, or undefined when `fp` was not pending
   */
  fail(fp: string): ChatMessage | undefined {
    return this.take(fp);
  }

  /** True when a message with this `fp` is pending. */
  has(fp: string): boolean {
    return this.items.has(fp);
  }

  /** The pending messages in the order they were added (a copy). */
  pending(): ChatMessage[] {
    return [...this.items.values()];
  }

  /** How many messages are pending. */
  get size(): number {
    return this.items.size;
  }

  /** Forgets every pending message. */
  clear(): void {
    this.items.clear();
  }

  private take(fp: string): ChatMessage | undefined {
    const message = this.items.get(fp);
    if (message === undefined) return undefined;
    this.items.delete(fp);
    this.onSettle(fp);
    return message;
  }
}
