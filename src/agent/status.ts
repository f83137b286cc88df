/**
 * The desk's status manager (desk issue "the desk runs a real support team"): the agent's own
 * status (`available` / `away`), capacity and load, the other online agents (transfer targets),
 * as the server's type 310 snapshots list them (`agents`), and the call that changes the status:
 * {@link DeskStatus.setStatus} (type 313); transfers are `transfer.ts`'s. Notes of
 * conversations transferred to this agent (session event `transferred`) are kept per visitor.
 * @module
 */
import { MessageType } from '../messages/types.js';
import { createStore, type Store } from '../state/store.js';
import type { Disposables } from '../timers.js';
import { listen, type DeskClient } from './desk-client.js';

/** An agent's status: `available` agents get new visitors, `away` agents keep theirs and get none. */
export type AgentStatus = 'available' | 'away';

/** One online agent of a snapshot. */
export interface DeskAgent {
  /** User id (`agent:<account>`). */
  readonly id: string;
  /** Display name. */
  readonly name: string;
  /** Its status. */
  readonly status: AgentStatus;
  /** Conversations it serves now. */
  readonly open: number;
  /** The most it serves at once. */
  readonly capacity: number;
  /** The merchants it works for (empty when the server does not say). */
  readonly merchants: readonly string[];
}

/** The agent a conversation was transferred from. */
export interface TransferSender {
  /** User id (`agent:<account>`). */
  readonly id: string;
  /** Display name. */
  readonly name: string;
}

/** A conversation transferred to this agent: who sent it and the note only agents see. */
export interface TransferNote {
  /** The agent it came from. */
  readonly from: TransferSender;
  /** The note, if one was written. */
  readonly note?: string;
}

/** The desk's status snapshot (`desk.status.getSnapshot()`). */
export interface DeskStatusState {
  /** This agent's status (`available` until a snapshot or {@link DeskStatus.setStatus} says otherwise). */
  readonly status: AgentStatus;
  /** This agent's capacity (0 until the first snapshot listing it). */
  readonly capacity: number;
  /** Conversations this agent serves. */
  readonly open: number;
  /** The other online agents. */
  readonly others: readonly DeskAgent[];
  /** Transfer notes by visitor client id. */
  readonly notes: Readonly<Record<string, TransferNote>>;
  /** The merchants this agent works for (empty until a snapshot says; docs/protocol.md §6). */
  readonly merchants: readonly string[];
}

const INITIAL: DeskStatusState = Object.freeze({ status: 'available', capacity: 0, open: 0, others: [], notes: {}, merchants: [] });

/** The strings of a list (none when it is not one). */
function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

function objectOf(text: unknown): Record<string, unknown> | undefined {
  if (typeof text !== 'string') return undefined;
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The `agents` of a 310 snapshot's content (entries that do not parse are left out). */
export function parseDeskAgents(dataContent: unknown): DeskAgent[] | undefined {
  const list = objectOf(dataContent)?.['agents'];
  if (!Array.isArray(list)) return undefined;
  const out: DeskAgent[] = [];
  for (const item of list as unknown[]) {
    const a = item as Partial<Record<keyof DeskAgent, unknown>> | null;
    if (!a || typeof a.id !== 'string' || (a.status !== 'available' && a.status !== 'away')) continue;
    out.push({
      id: a.id,
      name: typeof a.name === 'string' ? a.name : a.id,
      status: a.status,
      open: typeof a.open === 'number' ? a.open : 0,
      capacity: typeof a.capacity === 'number' ? a.capacity : 0,
      merchants: strings(a.merchants),
    });
  }
  return out;
}

/** The agent's status, the other agents, and the notes of conversations transferred here. */
export class DeskStatus {
  /** The status snapshot, for `useSyncExternalStore`. */
  readonly store: Store<DeskStatusState> = createStore<DeskStatusState>(INITIAL);
  /** The status this agent chose on this desk: sent again after every login (a frame sent offline is lost). */
  private chosen: AgentStatus | null = null;

  /**
   * @param client - the agent's client
   * @param disposables - where the frame listener is registered
   * @internal the desk composes it
   */
  constructor(
    private readonly client: DeskClient,
    disposables: Disposables,
  ) {
    listen(disposables, client, 'socket message', ({ message }) => {
      if (message.type === MessageType.AgentQueue) this.snapshot(message.dataContent);
      else if (message.type === MessageType.SessionEvent) this.transferred(message.dataContent);
    });
    listen(disposables, client, 'socket login', () => {
      if (this.chosen !== null) this.client.send({ type: MessageType.AgentStatus, dataContent: JSON.stringify({ status: this.chosen }) });
    });
  }

  /** This agent's user id (`agent:<account>` of the connect data). */
  get selfId(): string {
    const account = this.client.getConnectData()['account'];
    return `agent:${typeof account === 'string' ? account : ''}`;
  }

  /**
   * Sets this agent's status (type 313); shown at once, confirmed by the next snapshot, and sent
   * again after every login of this desk (so a choice made while offline is not lost).
   */
  setStatus(status: AgentStatus): void {
    if (status !== 'available' && status !== 'away') throw new TypeError(`unknown agent status "${String(status)}"`);
    this.chosen = status;
    this.client.send({ type: MessageType.AgentStatus, dataContent: JSON.stringify({ status }) });
    this.store.setState({ ...this.store.getState(), status });
  }

  /**
   * The agents a conversation can go to: the others online, available and under their capacity,
   * of the conversation's merchant `mchId` when given (and when the server says their merchants).
   */
  targets(mchId?: string): DeskAgent[] {
    return this.store.getState().others.filter((a) => a.status === 'available' && a.open < a.capacity && (mchId === undefined || a.merchants.length === 0 || a.merchants.includes(mchId)));
  }

  private snapshot(dataContent: unknown): void {
    const agents = parseDeskAgents(dataContent);
    if (!agents) return;
    const self = agents.find((a) => a.id === this.selfId);
    const state = this.store.getState();
    const merchants = strings(objectOf(dataContent)?.['merchants']);
    this.store.setState({
      ...state,
      ...(self ? { status: self.status, capacity: self.capacity, open: self.open } : {}),
      others: agents.filter((a) => a.id !== this.selfId),
      ...(merchants.length > 0 ? { merchants } : {}),
    });
  }

  private transferred(dataContent: unknown): void {
    const event = objectOf(dataContent);
    if (event?.['event'] !== 'transferred' || typeof event['clientId'] !== 'string') return;
    const from = event['from'] as { id?: unknown; name?: unknown } | undefined;
    if (typeof from?.id !== 'string') return;
    const note: TransferNote = {
      from: { id: from.id, name: typeof from.name === 'string' ? from.name : from.id },
      ...(typeof event['note'] === 'string' ? { note: event['note'] } : {}),
    };
    const state = this.store.getState();
    this.store.setState({ ...state, notes: { ...state.notes, [event['clientId']]: note } });
  }
}
