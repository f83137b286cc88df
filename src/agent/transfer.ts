/**
 * The desk's transfers (type 314, docs/protocol.md "Routing and transfer"): a conversation handed
 * to another agent of the merchant, with a note only agents see. The server answers a refused
 * transfer with a type 500 naming the frame's `fp` (`at-capacity`, `agent-away`,
 * `agent-offline`, `not-allowed`), and a done one with the session event `transferred-away` to
 * this agent; {@link DeskTransfer.transfer} settles its promise on either, and the store keeps the
 * last outcome for a desk UI.
 * @module
 */
import { MessageType } from '../messages/types.js';
import { createStore, type Store } from '../state/store.js';
import type { Disposables, Disposer } from '../timers.js';
import { listen, type DeskClient } from './desk-client.js';

/** The longest note sent (characters; the server keeps at most as many). */
export const MAX_TRANSFER_NOTE = 500;

/** How long a transfer waits for the server's answer before it is given up (`timeout`), ms. */
export const TRANSFER_WAIT_MS = 10_000;

/**
 * Why a transfer did not happen: the other agent serves as many conversations as it may
 * (`at-capacity`), is away (`agent-away`) or offline (`agent-offline`); the conversation is not
 * this agent's to give, or the agent not one of its merchant (`not-allowed`); a malformed frame
 * (`bad-frame`); the socket was not open (`not-open`); no answer in {@link TRANSFER_WAIT_MS}
 * (`timeout`).
 */
export type TransferRefusal = 'at-capacity' | 'agent-away' | 'agent-offline' | 'not-allowed' | 'bad-frame' | 'not-open' | 'timeout';

const SERVER_REASONS: ReadonlySet<string> = new Set<TransferRefusal>(['at-capacity', 'agent-away', 'agent-offline', 'not-allowed', 'bad-frame']);

/** A transfer that did not happen: the promise of {@link DeskTransfer.transfer} rejects with it. */
export class TransferError extends Error {
  /** `TransferError`. */
  override name = 'TransferError';

  /**
   * @param reason - why
   * @param clientId - the visitor of the conversation
   * @param toAgentId - the agent it was to go to
   */
  constructor(
    readonly reason: TransferRefusal,
    readonly clientId: string,
    readonly toAgentId: string,
  ) {
    super(`transfer of ${clientId} to ${toAgentId} refused: ${reason}`);
  }
}

/** A transfer asked for on this desk and where it stands. */
export interface TransferOutcome {
  /** The visitor of the conversation. */
  readonly clientId: string;
  /** The agent it goes to. */
  readonly toAgentId: string;
  /** Waiting for the server, done, or refused. */
  readonly state: 'pending' | 'done' | 'refused';
  /** Why it was refused. */
  readonly reason?: TransferRefusal;
}

/** The desk's transfer snapshot (`desk.transfers.store.getSnapshot()`). */
export interface DeskTransferState {
  /** The latest transfer asked for on this desk, or null. */
  readonly last: TransferOutcome | null;
}

interface Waiting {
  clientId: string;
  toAgentId: string;
  resolve(): void;
  reject(error: TransferError): void;
  stopTimer: Disposer;
}

/** Transfers and their outcomes. */
export class DeskTransfer {
  /** The latest outcome, for `useSyncExternalStore`. */
  readonly store: Store<DeskTransferState> = createStore<DeskTransferState>({ last: null });
  /** Transfers waiting for the server, by the `fp` of their frame. */
  private readonly waiting = new Map<string, Waiting>();

  /**
   * @param client - the agent's client
   * @param disposables - where listeners and timers are registered
   * @internal the desk composes it
   */
  constructor(
    private readonly client: DeskClient,
    private readonly disposables: Disposables,
  ) {
    listen(disposables, client, 'refusal', ({ reason, fp }) => {
      if (fp !== undefined && this.waiting.has(fp)) this.settle(fp, SERVER_REASONS.has(reason) ? (reason as TransferRefusal) : 'not-allowed');
    });
    listen(disposables, client, 'socket message', ({ message }) => {
      if (message.type !== MessageType.SessionEvent) return;
      const moved = transferredAway(message.dataContent);
      if (!moved) return;
      for (const [fp, w] of this.waiting) if (w.clientId === moved.clientId && w.toAgentId === moved.to) this.settle(fp, null);
    });
    disposables.add(() => this.waiting.clear());
  }

  /**
   * Transfers the conversation with `clientId` to the agent `toAgentId` (type 314), with an
   * optional note the visitor does not see (trimmed, at most {@link MAX_TRANSFER_NOTE} characters).
   * Resolves when the server moved it (the conversation then leaves this desk, marked
   * `transferred`); rejects with a {@link TransferError} saying why it did not.
   * @throws TypeError (synchronously) without a visitor or an agent
   */
  transfer(clientId: string, toAgentId: string, note?: string): Promise<void> {
    if (clientId === '' || toAgentId === '') throw new TypeError('transfer needs a visitor and an agent');
    const text = note?.trim().slice(0, MAX_TRANSFER_NOTE) ?? '';
    const sent = this.client.send({ type: MessageType.AgentTransfer, dataContent: JSON.stringify({ clientId, to: toAgentId, ...(text !== '' ? { note: text } : {}) }) });
    this.store.setState({ last: { clientId, toAgentId, state: 'pending' } });
    const fp = sent.fp;
    if (sent.sendState === 'failed' || fp === undefined) return Promise.reject(this.outcome(clientId, toAgentId, 'not-open'));
    return new Promise<void>((resolve, reject) => {
      const stopTimer = this.disposables.timeout(() => this.settle(fp, 'timeout'), TRANSFER_WAIT_MS);
      this.waiting.set(fp, { clientId, toAgentId, resolve, reject, stopTimer });
    });
  }

  /** A waiting transfer is done (`reason` null) or refused. */
  private settle(fp: string, reason: TransferRefusal | null): void {
    const w = this.waiting.get(fp);
    if (!w) return;
    this.waiting.delete(fp);
    w.stopTimer();
    if (reason === null) {
      this.store.setState({ last: { clientId: w.clientId, toAgentId: w.toAgentId, state: 'done' } });
      w.resolve();
    } else {
      w.reject(this.outcome(w.clientId, w.toAgentId, reason));
    }
  }

  /** Stores a refusal as the last outcome and answers its error. */
  private outcome(clientId: string, toAgentId: string, reason: TransferRefusal): TransferError {
    this.store.setState({ last: { clientId, toAgentId, state: 'refused', reason } });
    return new TransferError(reason, clientId, toAgentId);
  }
}

/** The visitor and the new agent of a `transferred-away` session event's content, if it is one. */
export function transferredAway(dataContent: unknown): { sessionId: string; clientId: string; to: string; toName: string } | undefined {
  if (typeof dataContent !== 'string') return undefined;
  try {
    const e = JSON.parse(dataContent) as { event?: unknown; sessionId?: unknown; clientId?: unknown; to?: { id?: unknown; name?: unknown } } | null;
    if (e?.event !== 'transferred-away' || typeof e.sessionId !== 'string' || typeof e.clientId !== 'string' || typeof e.to?.id !== 'string') return undefined;
    return { sessionId: e.sessionId, clientId: e.clientId, to: e.to.id, toName: typeof e.to.name === 'string' ? e.to.name : e.to.id };
  } catch {
    return undefined;
  }
}
