/**
 * Refused visitors, SDK against the real reference server: a blacklisted visitor (seeded id)
 * cannot send or rate; a banned one is refused at connect and not reconnected.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/index.js';
import { clientsPerTest, connectedVisitor, DEMO, DEMO_VISITOR, frame, leaveMessage, recordingWebSocket, sharedServer, type TestServer, waitUntil } from './harness.js';

let server: TestServer;

sharedServer((s) => (server = s));
const clients = clientsPerTest();

describe('a blacklisted visitor is refused: sends fail with "blacklisted", rating is refused (2001)', () => {
  it('refuses its text and its transfer, marks them failed with a notice, and refuses markScore', async () => {
    const visitor = await connectedVisitor(clients, server, { clientId: DEMO.blacklistedClientId });
    const v = visitor.client;
    expect(v.userId).toBe(DEMO.blacklistedClientId);

    const text = v.sendText('hello, anybody there?');
    const refusal = await frame(visitor, (m) => m.type === 500);
    expect(JSON.parse(refusal.dataContent ?? '')).toEqual({ reason: 'blacklisted', fp: text.fp });
    await waitUntil(() => expect(v.messages.get(text.fp!)).toMatchObject({ sendState: 'failed', failReason: 'blacklisted' }));
    expect(visitor.notices).toContainEqual(expect.objectContaining({ key: 'blacklisted', level: 'error' }));
    expect(await server.store.chat.message(text.fp!)).toBeUndefined();

    const transfer = v.transferToHuman();
    await frame(visitor, (m) => m.type === 500 && m.dataContent?.includes(transfer.fp!) === true);
    expect(v.session.getState().status).toBe('robot');
    expect((await server.store.chat.queue()).some((s) => s.clientId === DEMO.blacklistedClientId)).toBe(false);

    const before = visitor.notices.length;
    const rating = await v.rate(5).catch((e: unknown) => e);
    expect(rating).toBeInstanceOf(ApiError);
    expect(rating).toMatchObject({ code: 2001, message: '您已被拉黑，无法使用评价功能' }) // in the client's language (zh);
    expect(visitor.notices.slice(before)).toEqual([expect.objectContaining({ text: '您已被拉黑，无法使用评价功能' })]);

    // a retry is refused again, with the same fp (nothing is stored)
    v.retry(text.fp!);
    await waitUntil(() => expect(visitor.frames.filter((f) => f.message.type === 500 && f.message.dataContent?.includes(text.fp!))).toHaveLength(2));
    expect(v.messages.get(text.fp!)?.sendState).toBe('failed');

    // docs/protocol.md §3: a blacklisted visitor may still leave a message
    const left = await leaveMessage(v, 'Why can I not write?');
    expect(left.type).toBe(401);
    expect(await server.store.records.leaveMessages(DEMO.blacklistedClientId)).toHaveLength(1);
    // the socket stayed up through all of it
    expect(v.connectionState).toBe('open');
    expect(visitor.errors).toEqual([]);
  });
});

describe('a banned visitor gets the banned refusal at connect and is not reconnected (4003)', () => {
  it('shows the banned notice and ends in failed after one attempt', async () => {
    const { closeCodes: codes, WebSocket: Recording } = recordingWebSocket();
    const visitor = clients.make(server, {
      clientId: 'demo-banned',
      WebSocket: Recording,
      connectData: DEMO_VISITOR,
    });
    await visitor.client.start();
    visitor.client.connect();
    await waitUntil(() => expect(visitor.client.connectionState).toBe('failed'));
    expect(codes).toEqual([4003]);
    const refusal = await frame(visitor, (m) => m.type === 500);
    expect(JSON.parse(refusal.dataContent ?? '')).toMatchObject({ reason: 'banned' });
    expect(visitor.notices).toContainEqual(expect.objectContaining({ key: 'banned' }));
    // permit calls naming it are refused with 2003
    const history = await visitor.client.api
      .findMsgForCus({ clientId: 'demo-banned', mchId: DEMO.mchId, platformId: DEMO.platformId })
      .catch((e: unknown) => e);
    expect(history).toMatchObject({ code: 2003 });
  });
});
