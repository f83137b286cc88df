/**
 * The desk's visitor context: for each visitor the panel shows (name, merchant, platform,
 * language, first seen, earlier conversations, last rating), loaded with the agent call
 * `agent/visitorContext` and kept in a store per client id.
 * @module
 */
import type { QueuedQuery, VisitorContext } from '../http/desk-types.js';
import { createStore, type Store } from '../state/store.js';
import type { DeskCallsHolder } from './desk-client.js';

/** The contexts loaded so far and the failures. */
export interface DeskContextSnapshot {
  /** Context per client id. */
  readonly byVisitor: Readonly<Record<string, VisitorContext>>;
  /** The last failure per client id. */
  readonly errors: Readonly<Record<string, string>>;
}

/** Visitor contexts: load and read. */
export class DeskContext {
  /** The loaded contexts, for `useSyncExternalStore`. */
  readonly store: Store<DeskContextSnapshot> = createStore<DeskContextSnapshot>({ byVisitor: {}, errors: {} });

  /**
   * @param client - the desk's calls (`{ api: new DeskApi(client.api) }`)
   * @internal the desk composes it
   */
  constructor(private readonly client: DeskCallsHolder) {}

  /** The loaded context of `clientId`, if any. */
  of(clientId: string): VisitorContext | undefined {
    return this.store.getState().byVisitor[clientId];
  }

  /** Loads (again) the context of a visitor assigned to the agent; a failure is kept and rejects. */
  async load(q: QueuedQuery): Promise<VisitorContext> {
    try {
      const context = await this.client.api.agentVisitorContext(q);
      this.store.setState((s) => ({ byVisitor: { ...s.byVisitor, [q.clientId]: context }, errors: omit(s.errors, q.clientId) }));
      return context;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.store.setState((s) => ({ errors: { ...s.errors, [q.clientId]: message } }));
      throw error;
    }
  }
}

function omit(record: Readonly<Record<string, string>>, key: string): Record<string, string> {
  const { [key]: _dropped, ...rest } = record;
  return rest;
}
