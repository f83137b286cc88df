/**
 * The visitor's identity on the socket (protocol §3a): the secret a server hands out when a client
 * id is first claimed, sent back as `d.clientSecret` on every later connect, and what happens when
 * the server refuses the identity (close code 4004): forget the id and its secret, make a new id,
 * tell the user, drop the old conversation, and connect as a new visitor, once. A second 4004
 * before any welcome is an error state, not a loop.
 *
 * A server without identity binding never sends a secret: nothing here changes then.
 * @module
 */
import type { ConnectionState } from './events.js';
import type { ChatMessage } from './messages/types.js';
import { MessageType } from './messages/types.js';
import type { ClientState } from './state/client-state.js';
import type { Store } from './state/store.js';

/**
 * How long a client whose id was merged (4004 `merged`) waits to be told to follow the tab that
 * logged in, ms; then it starts a new identity as for any refused id.
 */
export const MERGED_FOLLOW_WAIT = 10_000;

/**
 * What {@link IdentityKeeper.onRefused} decided. `wait`: the id was merged into a member (only a
 * holder of its secret can do that: another tab of this storage that logged in): no new id, no
 * retry; that tab tells this one to follow it (the tab channel's `identity` message), else
 * {@link IdentityKeeper.renewIfWaiting} starts a new identity after {@link MERGED_FOLLOW_WAIT}.
 */
export type IdentityOutcome = 'retry' | 'new-identity' | 'give-up' | 'wait';

/** What the identity keeper needs from the client (narrow on purpose). @internal */
export interface IdentityDeps {
  /** The persisted client state (`uuid`, `clientSecret`). */
  state: Store<Pick<ClientState, 'uuid' | 'clientSecret'>> & {
    readStoredIdentity(): { uuid: string | null; clientSecret: string | null };
  };
  /** Makes a new client id. */
  createId: () => string;
  /** Called once a new identity replaced a refused one: clear the old conversation, tell the user. */
  onReset: (ctx: { oldId: string; newId: string }) => void;
  /** Called when even a fresh identity was refused: the client stops reconnecting. */
  onGiveUp: (error: Error) => void;
}

/** The parsed `dataContent` object of a welcome (type 60), or null. */
function welcomeContent(message: ChatMessage): Record<string, unknown> | null {
  if (message.type !== MessageType.Welcome || typeof message.dataContent !== 'string') return null;
  try {
    const parsed: unknown = JSON.parse(message.dataContent);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The `clientSecret` of a welcome (type 60), or undefined when it carries none. @internal */
export function secretOfWelcome(message: ChatMessage): string | undefined {
  const secret = welcomeContent(message)?.clientSecret;
  return typeof secret === 'string' && secret !== '' && secret.length <= 256 ? secret : undefined;
}

/** Whether a welcome (type 60) says the user id is a merchant's verified member (protocol §3b). @internal */
export function verifiedOfWelcome(message: ChatMessage): boolean {
  return welcomeContent(message)?.verified === true;
}

/** Keeps the client id's secret and handles refused identities. @internal */
export class IdentityKeeper {
  /** The secret sent with the connect in flight (`null`: none). */
  private sent: string | null = null;
  /** True from a reset until the next welcome: another 4004 then means give up. */
  private freshSinceReset = false;
  private gaveUp = false;
  /** The merged id this keeper waits to be told to leave (`wait`), or null. */
  private waitingAs: string | null = null;

  constructor(private readonly deps: IdentityDeps) {}

  /** True once a fresh identity was refused as well (reconnecting would loop). */
  get givenUp(): boolean {
    return this.gaveUp;
  }

  /** The connect data with `clientSecret` added when one is held; unchanged otherwise. */
  connectData(data: Readonly<Record<string, unknown>>): Record<string, unknown> {
    const { clientSecret } = this.deps.state.getState();
    this.sent = clientSecret;
    if (data.role === 'agent' || clientSecret === null) {
      const { clientSecret: _drop, ...rest } = data;
      return rest;
    }
    return { ...data, clientSecret };
  }

  /** A frame arrived: a welcome ends any reset, and its secret (if any) is kept. */
  onFrame(message: ChatMessage): void {
    if (message.type !== MessageType.Welcome) return;
    this.waitingAs = null;
    this.freshSinceReset = false;
    this.gaveUp = false;
    const secret = secretOfWelcome(message);
    if (secret !== undefined) this.deps.state.setState({ clientSecret: secret });
  }

  /**
   * The server refused the identity (4004). Another tab of the same storage may have claimed the
   * id meanwhile: its secret is adopted and the connect retried; or it logged in and merged the id
   * into the member's (reason `merged`): this tab waits to be told to follow (`wait`); or its own
   * refusal came first and it stored a new id: this tab takes that id. Otherwise a new identity
   * replaces the refused one (once); a refusal of that fresh identity gives up.
   * @param reason - the close reason (`identity refused`, `deleted`, `merged`)
   */
  onRefused(reason = ''): IdentityOutcome {
    const { uuid } = this.deps.state.getState();
    const stored = this.deps.state.readStoredIdentity();
    this.gaveUp = false;
    this.waitingAs = null;
    if (reason === 'merged') {
      this.gaveUp = true; // no reconnect under the retired id; the tab that logged in leads the way
      this.waitingAs = uuid;
      return 'wait';
    }
    if (stored.uuid === uuid && stored.clientSecret !== null && stored.clientSecret !== this.sent) {
      this.deps.state.setState({ clientSecret: stored.clientSecret });
      return 'retry';
    }
    if (this.freshSinceReset) {
      this.gaveUp = true;
      this.deps.onGiveUp(new Error('The server refused a new visitor identity (close code 4004) as well; not retrying.'));
      return 'give-up';
    }
    if (stored.uuid !== null && stored.uuid !== uuid) {
      // Another tab of this storage replaced the refused id already (its own 4004 came first):
      // this tab takes that identity, and its secret if stored, rather than making one more, so
      // that the tabs stay one visitor with one socket.
      this.renew(uuid, stored.uuid, stored.clientSecret);
      return 'new-identity';
    }
    this.renew(uuid);
    return 'new-identity';
  }

  /**
   * Still waiting under the merged id (no tab told this one to follow, no welcome came): starts a
   * new identity instead, as for any refused id.
   * @returns whether it did (then connect again)
   */
  renewIfWaiting(): boolean {
    const { uuid } = this.deps.state.getState();
    if (this.waitingAs === null || this.waitingAs !== uuid) return false;
    this.waitingAs = null;
    this.gaveUp = false;
    this.renew(uuid);
    return true;
  }

  /** Replaces the refused `oldId` with `newId` (a new one by default) and tells the client. */
  private renew(oldId: string, newId = this.deps.createId(), clientSecret: string | null = null): void {
    this.freshSinceReset = true;
    this.deps.state.setState({ uuid: newId, clientSecret });
    this.deps.onReset({ oldId, newId });
  }
}

/** What {@link untilWelcomed} listens to. @internal */
export interface WelcomeEvents {
  on(event: 'socket message', fn: (ctx: { message: ChatMessage }) => void): unknown;
  off(event: 'socket message', fn: (ctx: { message: ChatMessage }) => void): unknown;
  on(event: 'state', fn: (ctx: { newState: ConnectionState }) => void): unknown;
  off(event: 'state', fn: (ctx: { newState: ConnectionState }) => void): unknown;
}

/**
 * Resolves at the next welcome, or at once when the connection is closed or failed (then the
 * caller's request fails on its own). Visitor calls wait for it while a connect is under way:
 * before the welcome the key session speaks for nobody (protocol §3a.3) and would get 4003.
 * @internal
 */
export function untilWelcomed(events: WelcomeEvents, state: () => ConnectionState): Promise<void> {
  const now = state();
  if (now === 'closed' || now === 'failed') return Promise.resolve();
  return new Promise((resolve) => {
    const stop = (): void => {
      events.off('socket message', onMessage);
      events.off('state', onState);
      resolve();
    };
    const onMessage = ({ message }: { message: ChatMessage }): void => {
      if (message.type === MessageType.Welcome) stop();
    };
    const onState = ({ newState }: { newState: ConnectionState }): void => {
      if (newState === 'closed' || newState === 'failed') stop();
    };
    events.on('socket message', onMessage);
    events.on('state', onState);
  });
}
