/**
 * The desk's login manager: the kept login (the welcome's session token replaces the password in
 * the connect data and in the desk's storage) and the logout (type 312).
 * @module
 */
import type { StorageLike } from '../options.js';
import { MessageType, type ChatMessage } from '../messages/types.js';
import type { Disposables } from '../timers.js';
import { listen, type DeskClient } from './desk-client.js';
import { clearAgentLogin, sessionTokenOf, writeAgentLogin } from './session-token.js';

/** How long a logout waits at most for the server to close the socket, ms. */
export const LOGOUT_WAIT_MS = 3_000;

/**
 * Keeps the agent's login and logs it out. Its listeners and the logout's wait are registered in
 * the desk's disposables, so that `AgentDesk.destroy()` cancels them.
 */
export class DeskLogin {
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
    });
  }

  /**
   * Logs out (type 312): the server revokes the session token and releases the agent's visitors at
   * once; the kept login is forgotten and the client disconnects (it does not come back with the
   * revoked token). Resolves when the server closed the socket (at most {@link LOGOUT_WAIT_MS}).
   */
  async logout(): Promise<void> {
    if (this.storage) clearAgentLogin(this.storage);
    if (this.client.connectionState !== 'open') {
      this.client.disconnect();
      return;
    }
    const closed = this.socketClosed();
    const sent = this.client.send({ type: MessageType.AgentLogout, dataContent: '{}' });
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
