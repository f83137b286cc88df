/**
 * Visitor-scoped permit calls made before the welcome (issue 24): between `socket login` (the
 * socket opened) and the welcome the key session speaks for nobody yet (protocol §3a), and the
 * server answers 4003. `client.api` waits for the welcome (bounded), and the connection snapshot
 * says whether it came (`welcomed`).
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import type { MessagePage } from '../../src/index.js';
import { clientsPerTest, DEMO, DEMO_VISITOR, sharedServer, type TestServer, waitUntil } from './harness.js';

let server: TestServer;
sharedServer((s) => (server = s));
const clients = clientsPerTest();

/**
 * A loaded node: the key session is bound (and the welcome sent) `ms` after the connect arrives,
 * while HTTP calls are answered at once. Undone after the test.
 */
function slowBinding(ms: number): () => void {
  const identity = server.store.identity;
  const bind = identity.bindKeySession;
  identity.bindKeySession = async (...args: Parameters<typeof bind>) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return bind.apply(identity, args);
  };
  return () => {
    identity.bindKeySession = bind;
  };
}

describe('client.api between the socket opening and the welcome', () => {
  it('a history call made in the `socket login` listener waits for the welcome and succeeds (five visitors, a node that binds 300 ms late)', async () => {
    const restore = slowBinding(300);
    onTestFinished(restore);
    const outcomes = await Promise.all(
      Array.from({ length: 5 }, async () => {
        const rec = clients.make(server, { connectData: { ...DEMO_VISITOR, language: 'en' } });
        const v = rec.client;
        let call: Promise<MessagePage> | undefined;
        let welcomedAtLogin: boolean | undefined;
        v.on('socket login', () => {
          welcomedAtLogin = v.connectionStore.getState().welcomed;
          call = v.api.findMsgForCus({ clientId: v.clientId, mchId: DEMO.mchId, platformId: DEMO.platformId, size: 20 });
        });
        await v.start();
        v.connect();
        await waitUntil(() => expect(call).toBeDefined());
        const page = await call!.then(
          (p) => p,
          (e: unknown) => e as Error,
        );
        return { page, welcomedAtLogin, welcomed: v.connectionStore.getState().welcomed, notices: rec.notices.map((n) => n.text) };
      }),
    );
    for (const outcome of outcomes) {
      expect(outcome.page).not.toBeInstanceOf(Error);
      expect(outcome.welcomedAtLogin).toBe(false);
      expect(outcome.welcomed).toBe(true);
      expect(outcome.notices).toEqual([]);
    }
  });

  it('`welcomed` is false again once the socket closes', async () => {
    const rec = clients.make(server, { connectData: { ...DEMO_VISITOR, language: 'en' } });
    await rec.client.start();
    rec.client.connect();
    await waitUntil(() => expect(rec.client.connectionStore.getState().welcomed).toBe(true));
    rec.client.disconnect();
    expect(rec.client.connectionStore.getState()).toMatchObject({ state: 'closed', loggedIn: false, welcomed: false });
  });
});
