/**
 * The desk's login manager: the kept login (the welcome's session token replaces the password in
 * the connect data and in the desk's storage), the logout of this tab (type 312) and the logout
 * of every session of the account ("log out everywhere": type 312 with `{ everywhere: true }`).
 * @module
 */
import type { StorageLike } from '../options.js';
import { MessageType, type ChatMessage } from '../messages/types.js';
import { createStore, type Store } from '../state/store.js';
import type { Disposables } from '../timers.js';
import { listen, type DeskClient } from './desk-client.js';
import { clearAgentLogin, sessionTokenOf, writeAgentLogin } from './session-token.js';

/** How long a logout waits at most for the server to close the socket, ms. */
export const LOGOUT_WAIT_MS = 3_000;

/** What {@link DeskLogin.store} holds. */
export interface DeskLoginState {
  /**
   * True once this desk was logged out from another desk of the account ("log out everywhere"
   * there): the server revoked its token and closed its socket; the kept login is forgotten and
   * the client disconnected. A desk UI shows its login form.
   */
  readonly loggedOutElsewhere: boolean;
}

/**
 * Keeps the agent's login and logs it out. Its listeners and the logout's wait are registered in
 * the desk's disposables, so that `AgentDesk.destroy()` cancels them.
 */
export class DeskLogin {
  /** Whether another desk of the account logged this one out (`useSyncExternalStore`-ready). */
  readonly store: Store<DeskLoginState> = createStore<DeskLoginState>({ loggedOutElsewhere: false });
  private leaving = false;

  /**
   * @param client - the agent's client
   * @param disposables - where listeners and timers are registered
   * @param storage - where the login is kept (none: not kept)
   * @internal the desk composes it
   */
  constructor(
    private readonly client: DeskClient,
    private readonly disposables: Disposables,
    private readonly storage?: StorageLike,
  ) {
    listen(disposables, client, 'socket message', ({ message }) => {
      if (message.type === MessageType.Welcome) this.keep(message);
      else if (message.type === MessageType.AgentLogout && message.from === 'system') this.endedElsewhere();
    });
  }

  /**
   * Logs out (type 312): the server revokes the session token and releases the agent's visitors at
   * once; the kept login is forgotten and the client disconnects (it does not come back with the
   * revoked token). Resolves when the server closed the socket (at most {@link LOGOUT_WAIT_MS}).
   * @param options - `everywhere: true` ends every session of the account, not only this tab's:
   *   the server revokes all of its session tokens and closes every desk of the agent, on every
   *   node; those desks forget their login and report {@link DeskLoginState.loggedOutElsewhere}.
   * @throws Error (a rejection) for `everywhere` while the socket is not open: only the server can
   *   end the other sessions, so nothing is done (this desk stays logged in); try again once open.
   */
  async logout(options: { everywhere?: boolean } = {}): Promise<void> {
    if (options.everywhere === true && this.client.connectionState !== 'open') {
      throw new Error('log out everywhere needs an open connection: nothing was done, try again once connected');
    }
    this.leaving = true;
    if (this.storage) clearAgentLogin(this.storage);
    if (this.client.connectionState !== 'open') {
      this.client.disconnect();
      return;
    }
    const closed = this.socketClosed();
    const sent = this.client.send({ type: MessageType.AgentLogout, dataContent: options.everywhere === true ? '{"everywhere":true}' : '{}' });
    if (sent.sendState !== 'failed') await closed.promise;
    closed.cancel();
    this.client.disconnect();
  }

  /** Resolves when the socket is no longer open, at the latest after {@link LOGOUT_WAIT_MS}. */
  private socketClosed(): { promise: Promise<void>; cancel: () => void } {
    let resolve: () => void = () => undefined;
    const promise = new Promise<void>((r) => (resolve = r));
    const stopTimer = this.disposables.timeout(() => done(), LOGOUT_WAIT_MS);
    const stopListening = listen(this.disposables, this.client, 'state', ({ newState }) => {
      if (newState !== 'open') done();
    });
    // destroy() cancels the wait: the logout then resolves at once
    const stopOnDestroy = this.disposables.add(() => resolve());
    function done(): void {
      stopTimer();
      stopListening();
      stopOnDestroy();
      resolve();
    }
    return { promise, cancel: done };
  }

  /** Another desk of the account logged out everywhere: the server closes this socket next. */
  private endedElsewhere(): void {
    if (this.leaving) return;
    if (this.storage) clearAgentLogin(this.storage);
    this.client.disconnect();
    this.store.setState({ loggedOutElsewhere: true });
  }

  /** The welcome of a password login carries the session token: it replaces the password. */
  private keep(message: ChatMessage): void {
    const token = sessionTokenOf(message);
    const data = this.client.getConnectData();
    const account = typeof data.account === 'string' ? data.account : '';
    if (token === undefined || account === '') return;
    const { password: _password, ...rest } = data;
    this.client.setConnectData({ ...rest, token });
    if (this.storage) writeAgentLogin(this.storage, { account, token });
  }
}
