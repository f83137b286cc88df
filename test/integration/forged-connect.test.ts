/**
 * A forged connect (protocol §3): the server closes with 4001; the SDK neither crashes nor loops
 * forever: it reports its state changes and ends in `failed` after its reconnect attempts.
 */
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { clientsPerTest, DEMO_VISITOR, open, type Recorded, recordingWebSocket, sharedServer, type TestServer, waitUntil } from './harness.js';

let server: TestServer;

sharedServer((s) => (server = s));
const clients = clientsPerTest();

const limits = { reconnectDelay: 50, maxReconnectAttempts: 2 };

async function forged(socketKey: string): Promise<Recorded & { codes: number[] }> {
  const { closeCodes: codes, WebSocket: Ws } = recordingWebSocket();
  const rec = clients.make({ ...server, socketKey }, {
    WebSocket: Ws,
    limits,
    connectData: DEMO_VISITOR,
  });
  const started = await rec.client.start();
  expect(started.errors).toEqual([]);
  rec.client.connect();
  await waitUntil(() => expect(rec.client.connectionState).toBe('failed'), 5_000);
  return { ...rec, codes };
}

function expectFailedCleanly(rec: Recorded & { codes: number[] }): void {
  // the first attempt and `maxReconnectAttempts` retries, each refused with 4001
  expect(rec.codes).toEqual([4001, 4001, 4001]);
  expect(rec.client.userId).toBeUndefined();
  // the WebSocket opens before the server can send its close code, so each attempt reports
  // `open`; each refusal counts as a failed attempt all the same, and the third gives up
  expect(rec.states).toEqual(['connecting', 'open', 'reconnecting', 'open', 'reconnecting', 'open', 'failed']);
  // no welcome, no message was ever decoded, nothing thrown: errors are events
  expect(rec.frames).toEqual([]);
  expect(rec.errors.filter((e) => e.source !== 'socket' && e.source !== 'connect')).toEqual([]);
}

describe('a forged connect is refused with 4001 and the client ends in failed', () => {
  it('a wrong HMAC secret in socketKey', async () => {
    const [publicKey] = server.socketKey.split(',');
    const rec = await forged(`${publicKey},not-the-server-secret`);
    expectFailedCleanly(rec);
  });

  it('a public key that is not the server key', async () => {
    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const der = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    const [, secret] = server.socketKey.split(',');
    const rec = await forged(`${der},${secret}`);
    expectFailedCleanly(rec);
  });

  it('connect() leaves failed; with the right key the same client then connects', async () => {
    const rec = await forged(server.socketKey.replace(/,.*$/, ',wrong'));
    expect(rec.client.connectionState).toBe('failed');
    // the server still works for a well-keyed client
    const good = clients.make(server, { connectData: DEMO_VISITOR });
    await open(good);
    expect(good.logins).toEqual([{ reconnected: false }]);
    // and the failed one can be asked to try again: it leaves failed (and is refused again)
    rec.client.connect();
    expect(rec.client.connectionState).toBe('connecting');
    await waitUntil(() => expect(rec.client.connectionState).toBe('failed'));
    expect(rec.codes).toEqual([4001, 4001, 4001, 4001, 4001, 4001]);
  });
});
