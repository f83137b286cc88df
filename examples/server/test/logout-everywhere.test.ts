/**
 * "Log out everywhere" (type 312 with `{ everywhere: true }`), raw protocol against the reference
 * server: every session token of the account is revoked and every desk socket of the agent is
 * told (a type-312 notice) and closed with 1000 `logged out`, on every node. An attacker holding
 * an old token (a stolen laptop's storage) is refused with 4001; another agent is untouched; a
 * plain logout still ends only its own tab.
 *
 * Once on one node on SQLite, once on two nodes on one PostgreSQL database and one Redis (the
 * second part skips with the reason when either does not answer, except under CI).
 */
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { connectUrl, content, keyExchange, TestSocket } from '../../../conformance/src/client/index.js';
import { onOneNodeAndTwo } from './helpers/nodes.js';
import type { StartedServer as Server } from './helpers/start.js';

/** The attacker's refused tokens would otherwise slow the next logins down (the login throttle is tested apart). */
const NO_THROTTLE = { AGENT_LOGIN_FREE_FAILURES: '1000' };

/** A desk socket of `account` and the session token its welcome carried (password logins only). */
async function desk(server: Server, account: string, login: { password: string } | { token: string }): Promise<{ socket: TestSocket; token: string | undefined }> {
  const session = await keyExchange(server.url);
  const socket = await TestSocket.connect(server.socketUrl, server.socketKey, session, `desk-${randomUUID()}`, { role: 'agent', account, ...login });
  const welcome = socket.log.find((m) => m.type === 60)!;
  return { socket, token: content<{ sessionToken?: string }>(welcome).sessionToken };
}

/** How a token connect ends: its close, or `welcomed` when the server let it in. */
async function tokenConnect(server: Server, account: string, token: string): Promise<string> {
  const session = await keyExchange(server.url);
  const socket = await TestSocket.open(connectUrl(server.socketUrl, server.socketKey, session.saltKey, `desk-${randomUUID()}`, { role: 'agent', account, token }), session);
  const outcome = await Promise.race([socket.closed.then((c) => `closed ${c.code}`), socket.next((m) => m.type === 60).then(() => 'welcomed')]);
  if (outcome === 'welcomed') {
    // its session start (the snapshot) is done before the socket goes: a node closing later finds no work in flight
    await socket.next((m) => m.type === 310);
    await socket.close();
  }
  return outcome;
}

/** The rule, on the nodes `nodes()` gives (one node, or two of one cluster). */
function logoutEverywhereSuite(nodes: () => [Server, Server]): void {
  it('revokes every token of the account and closes every desk of the agent on every node; old tokens are refused with 4001', async () => {
    const [x, y] = nodes();
    const here = await desk(x, 'alice', { password: 'secret1' });
    const there = await desk(y, 'alice', { password: 'secret1' });
    const reloaded = await desk(y, 'alice', { token: here.token! }); // the first tab's token, reloaded elsewhere
    const bob = await desk(x, 'bob', { password: 'secret2' });

    here.socket.send({ type: 312, from: 'agent:alice', fp: randomUUID(), dataContent: JSON.stringify({ everywhere: true }) });
    expect(await here.socket.closed).toEqual({ code: 1000, reason: 'logged out' });
    for (const other of [there, reloaded]) {
      expect(await other.socket.closed).toEqual({ code: 1000, reason: 'logged out' });
      const notice = other.socket.log.find((m) => m.type === 312);
      expect(notice && content(notice)).toEqual({ everywhere: true });
    }

    // attacker: each old token, on either node
    for (const server of [x, y]) {
      expect(await tokenConnect(server, 'alice', here.token!)).toBe('closed 4001');
      expect(await tokenConnect(server, 'alice', there.token!)).toBe('closed 4001');
    }
    // another agent is untouched: its socket stays, its token works
    expect(bob.socket.isOpen).toBe(true);
    expect(bob.socket.log.some((m) => m.type === 312)).toBe(false);
    expect(await tokenConnect(y, 'bob', bob.token!)).toBe('welcomed');
    await bob.socket.close();
  });

  it('a plain logout (no everywhere) still ends only its own tab: the other desk stays and its token works', async () => {
    const [x, y] = nodes();
    const one = await desk(x, 'alice', { password: 'secret1' });
    const two = await desk(y, 'alice', { password: 'secret1' });
    one.socket.send({ type: 312, from: 'agent:alice', fp: randomUUID(), dataContent: '{}' });
    expect(await one.socket.closed).toEqual({ code: 1000, reason: 'logged out' });
    await two.socket.quiet(300);
    expect(two.socket.isOpen).toBe(true);
    expect(await tokenConnect(x, 'alice', one.token!)).toBe('closed 4001');
    expect(await tokenConnect(x, 'alice', two.token!)).toBe('welcomed');
    await two.socket.close();
  });
}

await onOneNodeAndTwo({ title: 'log out everywhere', database: 'kefu_logout', env: NO_THROTTLE }, logoutEverywhereSuite);
