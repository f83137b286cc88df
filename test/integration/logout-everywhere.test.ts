/**
 * "Log out everywhere", SDK against the real reference server over loopback: two desks of one
 * agent in two browsers (each with its own storage); `desk.logoutEverywhere()` in one ends both:
 * the other desk hears the server's notice, forgets its kept login, disconnects without trying
 * again and says so in `login.store`; the agent's visitor is released at once; a client that
 * reuses the other desk's old token (an attacker with a copy of its storage) is refused with 4001.
 * Once on one node on SQLite, once on two nodes on PostgreSQL + Redis (skipped with the reason
 * when either does not answer, except under CI).
 */
import { afterEach, expect, it } from 'vitest';
import { CloseCode } from '../../src/codes.js';
import { memoryStorage } from '../../src/index.js';
import { agentConnectData, readAgentLogin } from '../../src/agent/index.js';
import { onOneNodeAndTwo } from '../../examples/server/test/helpers/nodes.js';
import { deskAgent, servedBy } from './agent-helpers.js';
import { Clients, waitUntil, type ServerEndpoints } from './harness.js';

const clients = new Clients();
afterEach(() => clients.destroyAll());

/** The attacker's refused token would otherwise slow later logins down (the throttle is tested apart). */
const NO_THROTTLE = { AGENT_LOGIN_FREE_FAILURES: '1000', AGENT_GRACE_MS: '60000' };

function suite(nodes: () => [ServerEndpoints, ServerEndpoints]): void {
  it('ends the desks of both browsers, releases the visitor, and an old token is refused', async () => {
    const [x, y] = nodes();
    const here = await deskAgent(clients, x, memoryStorage());
    const thereStorage = memoryStorage();
    const there = await deskAgent(clients, y, thereStorage);
    await waitUntil(() => expect(readAgentLogin(thereStorage)).not.toBeNull());
    const stolen = readAgentLogin(thereStorage)!; // an attacker's copy of the other browser's storage
    const visitor = await servedBy(clients, x, there.desk);

    await here.desk.logoutEverywhere();
    expect(here.rec.client.connectionState).toBe('closed');
    await waitUntil(() => expect(there.desk.login.store.getState().loggedOutElsewhere).toBe(true));
    await waitUntil(() => expect(there.rec.client.connectionState).toBe('closed'));
    expect(readAgentLogin(thereStorage)).toBeNull();
    // the visitor is released at once (no grace period: the agent logged out)
    await waitUntil(() => expect(visitor.client.session.getState().status).not.toBe('agent'));
    // the logged-out desk tries nothing by itself
    const logins = there.rec.logins.length;
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(there.rec.client.connectionState).toBe('closed');
    expect(there.rec.logins).toHaveLength(logins);

    // attacker: the old token, on either node
    for (const server of [x, y]) {
      const attacker = clients.make(server, { connectData: agentConnectData(stolen.account, { token: stolen.token }), limits: { maxReconnectAttempts: 1 } });
      attacker.client.connect();
      await waitUntil(() => expect(attacker.client.connectionStore.getSnapshot()).toMatchObject({ halted: true, haltReason: 'unauthorized', lastCloseCode: CloseCode.Unauthorized }), 10_000);
      expect(attacker.frames.some((f) => f.message.type === 60)).toBe(false);
      attacker.client.destroy();
    }
  });
}

await onOneNodeAndTwo({ title: 'log out everywhere (SDK)', database: 'kefu_sdk_logout', env: NO_THROTTLE, beforeClose: () => clients.destroyAll() }, suite);
