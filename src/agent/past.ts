/**
 * The desk's past conversations: ended conversations listed newest first (paged) with search by
 * text and visitor, one opened read-only with its whole history, and a queued visitor's
 * transcript before accepting.
 * @module
 */
import type { PastConversation, QueuedQuery, Transcript } from '../http/desk-types.js';
import { createStore, type Store } from '../state/store.js';
import type { DeskCallsHolder } from './desk-client.js';

/** The search of the listing ('' = no filter). */
export interface PastSearch {
  /** A part of a message's text. */
  readonly text: string;
  /** A client id or a part of the visitor's name. */
  readonly visitor: string;
}

/** The listing and the opened conversation. */
export interface DeskPastSnapshot {
  /** The current search. */
  readonly search: PastSearch;
  /** The page shown (0-based). */
  readonly page: number;
  /** The conversations of the page, newest ended first. */
  readonly list: readonly PastConversation[];
  /** Whether a next page exists. */
  readonly hasMore: boolean;
  /** True while a page loads. */
  readonly loading: boolean;
  /** False until a page arrived. */
  readonly loaded: boolean;
  /** The conversation opened read-only, or null. */
  readonly opened: Transcript | null;
  /** The last failure's message, or null. */
  readonly error: string | null;
}

const INITIAL: DeskPastSnapshot = Object.freeze({
  search: { text: '', visitor: '' },
  page: 0,
  list: [],
  hasMore: false,
  loading: false,
  loaded: false,
  opened: null,
  error: null,
});

/** Past conversations: list, search, page, open read-only; queued transcripts. */
export class DeskPast {
  /** The listing and the opened conversation, for `useSyncExternalStore`. */
  readonly store: Store<DeskPastSnapshot> = createStore<DeskPastSnapshot>(INITIAL);
  private generation = 0;

  /**
   * @param client - the desk's calls (`{ api: new DeskApi(client.api) }`)
   * @param pageSize - conversations per page (1-50)
   * @internal the desk composes it
   */
  constructor(
    private readonly client: DeskCallsHolder,
    private readonly pageSize = 20,
  ) {}

  /** Searches (page 0); an empty search lists every ended conversation. */
  search(search: Partial<PastSearch> = {}): Promise<void> {
    const next = { text: (search.text ?? '').trim(), visitor: (search.visitor ?? '').trim() };
    return this.load(next, 0);
  }

  /** Loads the next page of the current search (nothing when there is none). */
  next(): Promise<void> {
    const s = this.store.getState();
    return s.hasMore ? this.load(s.search, s.page + 1) : Promise.resolve();
  }

  /** Loads the previous page (nothing on the first). */
  previous(): Promise<void> {
    const s = this.store.getState();
    return s.page > 0 ? this.load(s.search, s.page - 1) : Promise.resolve();
  }

  /** Opens an ended conversation read-only (into `opened`). */
  async open(sessionId: string): Promise<Transcript> {
    try {
      const opened = await this.client.api.agentPastOpen({ sessionId });
      this.store.setState({ opened, error: null });
      return opened;
    } catch (error) {
      this.store.setState({ error: messageOf(error) });
      throw error;
    }
  }

  /** Closes the opened conversation. */
  close(): void {
    this.store.setState({ opened: null });
  }

  /** What a queued visitor wrote (robot and queue), to read before accepting. */
  queued(q: QueuedQuery): Promise<Transcript> {
    return this.client.api.agentQueuedTranscript(q);
  }

  private async load(search: PastSearch, page: number): Promise<void> {
    const generation = ++this.generation;
    this.store.setState({ search, loading: true, error: null });
    try {
      const answer = await this.client.api.agentPastList({
        ...(search.text === '' ? {} : { text: search.text }),
        ...(search.visitor === '' ? {} : { visitor: search.visitor }),
        offset: page * this.pageSize,
        size: this.pageSize,
      });
      if (generation !== this.generation) return;
      this.store.setState({ page, list: answer.list, hasMore: answer.hasMore, loading: false, loaded: true });
    } catch (error) {
      if (generation === this.generation) this.store.setState({ loading: false, error: messageOf(error) });
      throw error;
    }
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
