import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { memoryStorage } from '../state/storage.js';
import { Disposables } from '../timers.js';
import { DeskLogin, LOGOUT_WAIT_MS } from './login.js';
import { AGENT_SESSION_KEY, readAgentLogin } from './session-token.js';
import { FakeDeskClient } from './test-utils.js';

const TOKEN = 'T'.repeat(43);

function setup() {
  const client = new FakeDeskClient();
  const storage = memoryStorage();
  const disposables = new Disposables();
  return { client, storage, disposables, login: new DeskLogin(client, disposables, storage) };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('the kept login: the welcome’s session token replaces the password', () => {
  it('swaps the password for the token in the connect data and keeps account and token (never the password)', () => {
    const { client, storage } = setup();
    client.frame({ type: 60, to: 'agent:alice', dataContent: JSON.stringify({ sessionToken: TOKEN }) });
    expect(client.getConnectData()).toEqual({ role: 'agent', account: 'alice', token: TOKEN });
    expect(readAgentLogin(storage)).toEqual({ account: 'alice', token: TOKEN });
    expect(storage.getItem(AGENT_SESSION_KEY)).not.toContain('pw');
  });

  it('a welcome without a token (a token login) changes nothing', () => {
    const { client, storage } = setup();
    client.frame({ type: 60, to: 'agent:alice', dataContent: '{}' });
    expect(client.getConnectData()).toHaveProperty('password', 'pw');
    expect(readAgentLogin(storage)).toBeNull();
  });
});

describe('logout (type 312): forget the login, wait for the server to close, disconnect', () => {
  it('resolves when the socket closes, without waiting for the timeout', async () => {
    const { client, storage, login, disposables } = setup();
    storage.setItem(AGENT_SESSION_KEY, JSON.stringify({ account: 'alice', token: TOKEN }));
    let done = false;
    const out = login.logout().then(() => (done = true));
    expect(client.sent).toEqual([{ type: 312, dataContent: '{}' }]);
    expect(storage.getItem(AGENT_SESSION_KEY)).toBeNull();
    await vi.advanceTimersByTimeAsync(10);
    expect(done).toBe(false);
    client.setState('closed');
    await out;
    expect(client.disconnect).toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
    expect(disposables.size).toBe(1); // the welcome listener only
  });

  it(`gives up waiting after ${LOGOUT_WAIT_MS} ms and disconnects`, async () => {
    const { client, login } = setup();
    let done = false;
    void login.logout().then(() => (done = true));
    await vi.advanceTimersByTimeAsync(LOGOUT_WAIT_MS - 1);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
    expect(client.disconnect).toHaveBeenCalled();
  });

  it('disposing cancels the wait: no timer is left and the logout resolves', async () => {
    const { login, disposables, client } = setup();
    const out = login.logout();
    expect(vi.getTimerCount()).toBe(1);
    disposables.dispose();
    expect(vi.getTimerCount()).toBe(0);
    expect(client.listenerTotal()).toBe(0);
    await out;
  });

  it('when the socket is not open it only disconnects', async () => {
    const { client, login } = setup();
    client.connectionState = 'reconnecting';
    await login.logout();
    expect(client.sent).toEqual([]);
    expect(client.disconnect).toHaveBeenCalled();
  });
});

describe('log out everywhere (type 312 with { everywhere: true }): every session of the account ends', () => {
  it('sends the logout with everywhere, forgets the login and disconnects once the server closed', async () => {
    const { client, storage, login } = setup();
    storage.setItem(AGENT_SESSION_KEY, JSON.stringify({ account: 'alice', token: TOKEN }));
    const out = login.logout({ everywhere: true });
    expect(client.sent).toEqual([{ type: 312, dataContent: '{"everywhere":true}' }]);
    expect(storage.getItem(AGENT_SESSION_KEY)).toBeNull();
    client.setState('closed');
    await out;
    expect(client.disconnect).toHaveBeenCalled();
    expect(login.store.getState().loggedOutElsewhere).toBe(false); // this desk logged itself out
  });

  it('another desk logged out everywhere: the server\'s notice makes this one forget its login, disconnect and say so', () => {
    const { client, storage, login } = setup();
    storage.setItem(AGENT_SESSION_KEY, JSON.stringify({ account: 'alice', token: TOKEN }));
    const seen: boolean[] = [];
    login.store.subscribe((s) => seen.push(s.loggedOutElsewhere));
    client.frame({ type: 312, from: 'system', to: 'agent:alice', dataContent: '{"everywhere":true}' });
    expect(storage.getItem(AGENT_SESSION_KEY)).toBeNull();
    expect(client.disconnect).toHaveBeenCalled();
    expect(seen).toEqual([true]);
  });

  it('a 312 from anyone but the server changes nothing', () => {
    const { client, storage, login } = setup();
    storage.setItem(AGENT_SESSION_KEY, JSON.stringify({ account: 'alice', token: TOKEN }));
    client.frame({ type: 312, from: 'v1', to: 'agent:alice', dataContent: '{"everywhere":true}' });
    expect(storage.getItem(AGENT_SESSION_KEY)).not.toBeNull();
    expect(client.disconnect).not.toHaveBeenCalled();
    expect(login.store.getState().loggedOutElsewhere).toBe(false);
  });
});

describe('log out everywhere while the socket is not open', () => {
  it('rejects and does nothing: the login is kept, nothing is sent, the client stays as it is', async () => {
    const { client, storage, login } = setup();
    storage.setItem(AGENT_SESSION_KEY, JSON.stringify({ account: 'alice', token: TOKEN }));
    client.connectionState = 'reconnecting';
    await expect(login.logout({ everywhere: true })).rejects.toThrow(/open connection/);
    expect(client.sent).toEqual([]);
    expect(client.disconnect).not.toHaveBeenCalled();
    expect(readAgentLogin(storage)).toEqual({ account: 'alice', token: TOKEN });
  });
});
