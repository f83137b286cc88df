/**
 * The desk's preview of a queued visitor (desk issue, "before accepting"): the agent opens a
 * visitor who waits in the queue and reads what it wrote in its current conversation (to the robot
 * and while queueing), read-only, without accepting; then accepts from there or closes it. The
 * server answers only for a visitor still queued with a merchant the agent serves
 * (`agent/queuedTranscript`); the preview notices when the visitor leaves the queue (accepted by
 * someone, gone) from the desk's queue snapshots.
 * @module
 */
import type { QueuedQuery, Transcript } from '../http/desk-types.js';
import type { QueueEntry } from '../messages/types.js';
import { createStore, type Store } from '../state/store.js';
import type { Disposables } from '../timers.js';
import type { DeskCallsHolder } from './desk-client.js';
import type { AgentDeskSnapshot } from './queue.js';

/** The visitor the preview shows. */
export interface PreviewedVisitor extends QueuedQuery {
  /** Its display name. */
  name: string;
}

/** The preview's state. */
export interface DeskPreviewSnapshot {
  /** The queued visitor opened, or null when the preview is closed. */
  readonly visitor: PreviewedVisitor | null;
  /** What it wrote in its current conversation, oldest first (null until loaded). */
  readonly transcript: Transcript | null;
  /** True while the transcript loads. */
  readonly loading: boolean;
  /** Whether the visitor is still in the queue (false once accepted by anyone or gone). */
  readonly waiting: boolean;
  /** The last failure's message, or null. */
  readonly error: string | null;
}

const CLOSED: DeskPreviewSnapshot = Object.freeze({ visitor: null, transcript: null, loading: false, waiting: false, error: null });

/** A queue entry as the preview's query (its merchant and platform are needed). */
function visitorOf(entry: QueueEntry | PreviewedVisitor): PreviewedVisitor {
  const { clientId, name, mchId, platformId } = entry;
  if (!mchId || platformId === undefined) throw new Error('the queue entry names no merchant: the server cannot be asked for its transcript');
  return { clientId, name, mchId, platformId };
}

/** The preview of one queued visitor: open, reload, close. */
export class DeskPreview {
  /** The preview, for `useSyncExternalStore`. */
  readonly store: Store<DeskPreviewSnapshot> = createStore<DeskPreviewSnapshot>(CLOSED);
  private generation = 0;

  /**
   * @param client - the desk's calls (`{ api: new DeskApi(client.api) }`)
   * @param queue - the desk's queue snapshots (whether the visitor still waits)
   * @param disposables - where the queue subscription is registered
   * @internal the desk composes it
   */
  constructor(
    private readonly client: DeskCallsHolder,
    private readonly queue: Store<AgentDeskSnapshot>,
    disposables: Disposables,
  ) {
    disposables.add(queue.subscribe((snapshot) => this.store.setState((s) => (s.visitor ? { waiting: inQueue(snapshot, s.visitor.clientId) } : null))));
  }

  /**
   * Opens a queued visitor (an entry of the queue snapshot) and loads what it wrote. Resolves with
   * the transcript; a refusal (the visitor is no longer queued, another merchant's) is kept in
   * `error` and rejects.
   */
  open(entry: QueueEntry | PreviewedVisitor): Promise<Transcript> {
    const visitor = visitorOf(entry);
    this.store.setState({ visitor, transcript: null, waiting: inQueue(this.queue.getState(), visitor.clientId), error: null });
    return this.load(visitor);
  }

  /** Loads the opened visitor's transcript again (what it wrote since). */
  reload(): Promise<Transcript | null> {
    const { visitor } = this.store.getState();
    return visitor ? this.load(visitor) : Promise.resolve(null);
  }

  /** Closes the preview (an answer still on its way is dropped). */
  close(): void {
    this.generation += 1;
    this.store.setState(CLOSED);
  }

  private async load(visitor: PreviewedVisitor): Promise<Transcript> {
    const generation = ++this.generation;
    this.store.setState({ loading: true, error: null });
    try {
      const transcript = await this.client.api.agentQueuedTranscript({ clientId: visitor.clientId, mchId: visitor.mchId, platformId: visitor.platformId });
      if (generation === this.generation) this.store.setState({ transcript, loading: false });
      return transcript;
    } catch (error) {
      if (generation === this.generation) this.store.setState({ loading: false, error: error instanceof Error ? error.message : String(error) });
      throw error;
    }
  }
}

function inQueue(snapshot: AgentDeskSnapshot, clientId: string): boolean {
  return snapshot.queue.some((entry) => entry.clientId === clientId);
}
