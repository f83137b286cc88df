/**
 * Answers of 1 KiB and more go compressed to a client that accepts it (a history page on a phone's
 * network), JSON only, and decode to the same JSON; small answers and the key exchange's (key material) are
 * sent as they are; a compressed request body is not inflated.
 */
import { randomUUID } from 'node:crypto';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { boundSession, encValue, newRequestKey } from '../../../conformance/src/client/index.js';
import type { MessageRecord } from '../src/store/types.js';
import { rawRequest, type RawAnswer } from './helpers/raw-http.js';
import { serverForFile } from './helpers/file-server.js';

const server = serverForFile();

function raw(path: string, init: Parameters<typeof rawRequest>[1] = {}): Promise<RawAnswer> {
  return rawRequest(`${server.url}${path}`, init);
}

/** A visitor with a bound key session and 30 texts in its conversation (a history page of ~20 is several kB). */
async function visitorWithHistory(): Promise<{ saltKey: string; userKey: Buffer; query: Record<string, unknown> }> {
  const clientId = randomUUID();
  const session = await boundSession(server, clientId, { mchId: 'M1001', platformId: 'P01' });
  const now = Date.now();
  await server.store.transaction(async (tx) => {
    for (let i = 0; i < 30; i++) {
      const record: MessageRecord = {
        ...{ fp: randomUUID(), type: 100, from: clientId, to: 'agent:demo', fn: 'Visitor', tn: 'Demo Agent', fa: '', ta: '' },
        ...{ mchId: 'M1001', platformId: 'P01', clientId, groupId: null, sessionId: null, dataContent: `#${i} 请问订单什么时候到账 when does my order arrive`, isRead: 1 },
        ...{ robot: 0, isGroup: 0, createTime: now - (30 - i) * 1000, cm: null },
      };
      await tx.chat.insertMessage(record);
    }
  });
  return { saltKey: session.saltKey, userKey: session.userKey, query: { clientId, mchId: 'M1001', platformId: 'P01' } };
}

describe('HTTP answers compressed for the clients that accept it', () => {
  it('sends a history page compressed (Brotli, else gzip), decoding to the JSON sent to a client that accepts none', async () => {
    const visitor = await visitorWithHistory();
    const history = (encoding?: string): Promise<RawAnswer> =>
      raw('/im/api/permit/findMsgForCus', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-salt-key': visitor.saltKey, ...(encoding ? { 'accept-encoding': encoding } : {}) },
        body: JSON.stringify({ data: encValue(visitor.userKey, visitor.query) }),
      });
    const plain = await history();
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const json = JSON.parse(plain.body.toString('utf8')) as { code: number; data: { list?: unknown[] } | unknown[] };
    expect(json.code).toBe(0);
    expect(plain.body.length).toBeGreaterThan(1024);

    const br = await history('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers['vary'])).toMatch(/accept-encoding/i);
    expect(JSON.parse(brotliDecompressSync(br.body).toString('utf8'))).toEqual(json);
    expect(br.body.length).toBeLessThan(plain.body.length / 2);

    const gzip = await history('gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.body).toString('utf8'))).toEqual(json);
  });

  it('sends small answers and the key exchange (key material) as they are', async () => {
    const accepts = { 'accept-encoding': 'br, gzip' };
    const time = await raw('/im/api/permit/getServerTime', { headers: accepts });
    expect(time.headers['content-encoding']).toBeUndefined();
    const requestKey = newRequestKey();
    for (const path of [`/im/api/permit/getAesKey?requestKey=${requestKey}`, `/im/api/permit/getUserToken?requestKey=${requestKey}`]) {
      const answer = await raw(path, { headers: accepts });
      expect(answer.status, path).toBe(200);
      expect(answer.headers['content-encoding'], path).toBeUndefined();
      expect((JSON.parse(answer.body.toString('utf8')) as { code: number }).code, path).toBe(0);
    }
  });

  it('does not inflate a compressed request body: a clear error, and the server goes on', async () => {
    const body = gzipSync(JSON.stringify({ data: 'x'.repeat(10_000) }));
    const answer = await raw('/im/api/permit/findMsgForCus', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', 'x-salt-key': 'nobody' },
      body,
    });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect((JSON.parse(answer.body.toString('utf8')) as { code: number }).code).not.toBe(0);
    expect((await raw('/im/api/permit/getServerTime')).status).toBe(200);
  });
});
