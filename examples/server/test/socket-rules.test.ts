import { randomUUID } from 'node:crypto';
import { describe, expect, it, onTestFinished } from 'vitest';
import { content, enc, keyExchange, TestSocket, type Msg, type Session } from '../../../conformance/src/client/index.js';
import { serverForFile } from './helpers/file-server.js';

const server = serverForFile({}, { RATE_SOCKET_MAX: '3', RATE_SOCKET_WINDOW_MS: '60000' });

const where = { mchId: 'M1001', platformId: 'P01' };

async function visitor(clientId: string = randomUUID(), d: Record<string, unknown> = where): Promise<{ id: string; session: Session; socket: TestSocket }> {
  const session = await keyExchange(server.url);
  const socket = await TestSocket.connect(server.socketUrl, server.socketKey, session, clientId, d);
  return { id: clientId, session, socket };
}

function refusal(fp: string): (m: Msg) => boolean {
  return (m) => m.type === 500 && content<{ fp: string }>(m).fp === fp;
}

describe('protocol §5: heartbeat', () => {
  it('answers a heartbeat (type 1) with type 51 carrying the server time in sm', async () => {
    const v = await visitor();
    const before = Date.now();
    v.socket.send({ type: 1, from: v.id, dataContent: '{}' });
    const reply = await v.socket.next((m) => m.type === 51);
    expect(reply.sm).toBeGreaterThanOrEqual(before);
    await v.socket.close();
  });
});

describe('protocol §4: delivery acknowledgement', () => {
  it('acknowledges a resend with a known fp again, with the same createTime, and stores it once', async () => {
    const v = await visitor();
    await v.socket.next((m) => m.type === 201);
    const fp = randomUUID();
    v.socket.send({ type: 100, from: v.id, fp, dataContent: 'only once please' });
    const first = await v.socket.next((m) => m.fp === fp);
    await v.socket.quiet();
    // reconnect and resend, as a client does with an unacknowledged message
    await v.socket.close();
    const again = await TestSocket.connect(server.socketUrl, server.socketKey, v.session, v.id, where);
    again.send({ type: 100, from: v.id, fp, dataContent: 'only once please' });
    const second = await again.next((m) => m.fp === fp);
    expect(second.createTime).toBe(first.createTime);
    await again.quiet();
    // the robot answered once only (the resend was not handled again)
    const history = await enc<{ list: Msg[] }>(server.url, v.session, 'POST', 'findMsgForCus', { clientId: v.id, ...where, size: 100 });
    expect(history.data.list.filter((m) => m.fp === fp)).toHaveLength(1);
    expect(again.log.filter((m) => m.type === 200)).toHaveLength(0);
    await again.close();
  });

  it('refuses a resend of someone else\'s fp as a bad frame', async () => {
    const a = await visitor();
    const b = await visitor();
    const fp = a.socket.say(a.id, 100, 'mine');
    await a.socket.next((m) => m.fp === fp);
    b.socket.send({ type: 100, from: b.id, fp, dataContent: 'stolen' });
    const refused = await b.socket.next(refusal(fp));
    expect(content(refused)).toEqual({ reason: 'bad-frame', fp });
    await Promise.all([a.socket.close(), b.socket.close()]);
  });
});

describe('spec §5: refusals (type 500)', () => {
  it('refuses a blank message with reason blank, naming its fp, and does not store it', async () => {
    const v = await visitor();
    const fp = v.socket.say(v.id, 100, '   \n ');
    const refused = await v.socket.next(refusal(fp));
    expect(content(refused)).toEqual({ reason: 'blank', fp });
    const history = await enc<{ list: Msg[] }>(server.url, v.session, 'POST', 'findMsgForCus', { clientId: v.id, ...where });
    expect(history.data.list.some((m) => m.fp === fp)).toBe(false);
    await v.socket.close();
  });

  it('refuses sending too often per client with reason too-frequent (limit 3 per window here)', async () => {
    const v = await visitor();
    const fps = [1, 2, 3, 4].map((n) => v.socket.say(v.id, 100, `message ${n}`));
    for (const fp of fps.slice(0, 3)) await v.socket.next((m) => m.fp === fp && m.type === 100);
    const refused = await v.socket.next(refusal(fps[3] ?? ''));
    expect(content(refused)).toMatchObject({ reason: 'too-frequent' });
    // the limit is per client: reconnecting does not reset it
    await v.socket.close();
    const again = await TestSocket.connect(server.socketUrl, server.socketKey, v.session, v.id, where);
    const fp = again.say(v.id, 100, 'after reconnect');
    expect(content(await again.next(refusal(fp)))).toMatchObject({ reason: 'too-frequent' });
    await again.close();
  });

  it('refuses a frame that neither parses nor decrypts as bad-frame and keeps the connection', async () => {
    const v = await visitor();
    v.socket.ws.send('this is not a frame');
    await v.socket.next((m) => m.type === 500 && content<{ reason: string }>(m).reason === 'bad-frame');
    v.socket.send({ type: 1, from: v.id, dataContent: '{}' });
    await v.socket.next((m) => m.type === 51);
    await v.socket.close();
  });

  it('closes with 1009 on a frame over 64 KiB', async () => {
    const v = await visitor();
    v.socket.ws.send('x'.repeat(64 * 1024 + 1));
    const closed = await v.socket.closed;
    expect(closed.code).toBe(1009);
    // the server is fine
    const other = await visitor();
    other.socket.send({ type: 1, from: other.id, dataContent: '{}' });
    await other.socket.next((m) => m.type === 51);
    await other.socket.close();
  });

  it('refuses a visitor posting in a channel with not-allowed, and delivers a member\'s group message', async () => {
    const v = await visitor();
    const fp = v.socket.say(v.id, 100, 'can I post?', { to: 'C100', isGroup: 1 });
    expect(content(await v.socket.next(refusal(fp)))).toMatchObject({ reason: 'not-allowed' });
    const w = await visitor();
    const info = await enc<{ kind: string; memberCount: number }>(server.url, w.session, 'GET', 'getGroupInfo', { groupId: 'G100', clientId: w.id });
    expect(info).toMatchObject({ code: 0, data: { kind: 'group' } });
    const groupFp = v.socket.say(v.id, 100, 'hello group', { to: 'G100', isGroup: 1 });
    const ack = await v.socket.next((m) => m.fp === groupFp);
    expect(ack).toMatchObject({ isGroup: 1, to: 'G100', imGroupMsgReadList: [] });
    const got = await w.socket.next((m) => m.fp === groupFp);
    // w reads it: the sender hears the receipt and the read list holds w
    w.socket.send({ type: 104, from: w.id, to: v.id, fp: randomUUID(), dataContent: groupFp, cm: got.createTime, isGroup: 1 });
    await v.socket.next((m) => m.type === 104 && m.dataContent === groupFp);
    const page = await enc<{ list: Msg[] }>(server.url, v.session, 'POST', 'clientGroupMsgList', { clientId: v.id, groupId: 'G100' });
    const stored = page.data.list.find((m) => m.fp === groupFp);
    // w appears to v by its per-group alias, never by its client id (protocol §3a)
    expect(stored?.imGroupMsgReadList).toEqual([expect.objectContaining({ clientId: expect.stringMatching(/^m-[0-9a-f]{16}$/) })]);
    expect(JSON.stringify(page.data)).not.toContain(w.id);
    expect(stored?.isRead).toBe(1);
    expect(page.data.list.map((m) => m.dataContent)).toContain('Hi all! Deposits are fast today.');
    const users = await enc<{ clientId: string; name: string; role: string }[]>(server.url, v.session, 'GET', 'getGroupUserList', { groupId: 'G100' });
    expect(users.data.map((u) => u.clientId)).toContain(v.id);
    expect(users.data.length).toBeGreaterThanOrEqual(3);
    expect(JSON.stringify(users.data)).not.toContain(w.id);
    expect(JSON.stringify(users.data)).not.toContain('demo-staff');
    await Promise.all([v.socket.close(), w.socket.close()]);
  });
});

describe('spec §6: blacklisted and banned visitors', () => {
  it('a blacklisted visitor is refused messages (blacklisted) and the rating function (2001)', async () => {
    const v = await visitor('demo-blacklisted');
    const fp = v.socket.say(v.id, 100, 'hi');
    expect(content(await v.socket.next(refusal(fp)))).toMatchObject({ reason: 'blacklisted' });
    const rated = await enc(server.url, v.session, 'POST', 'markScore', { clientId: v.id, ...where, score: 5 });
    expect(rated.code).toBe(2001);
    expect(rated.message).toBe('您已被拉黑，无法使用评价功能'); // Accept-Language: zh
    await v.socket.close();
  });

  it('a banned visitor gets the banned refusal at connect, then the socket closes (4003); calls answer 2003', async () => {
    const session = await keyExchange(server.url);
    const { connectUrl } = await import('../../../conformance/src/client/index.js');
    const socket = await TestSocket.open(connectUrl(server.socketUrl, server.socketKey, session.saltKey, 'demo-banned', where), session);
    const closed = await socket.closed;
    expect(closed.code).toBe(4003);
    expect(socket.log.map((m) => m.type)).toEqual([500]);
    expect(content(socket.log[0] as Msg)).toMatchObject({ reason: 'banned' });
    const history = await enc(server.url, session, 'POST', 'findMsgForCus', { clientId: 'demo-banned', ...where });
    expect(history.code).toBe(2003);
  });
});

describe('backpressure: a burst of frames is read at the store\'s pace, none dropped', () => {
  it('takes 2 000 frames sent at once and then three texts: the connection stays open and the texts are acknowledged in order', { timeout: 30_000 }, async () => {
    const v = await visitor();
    // a slow store (as a database across the network): each lookup takes a while, so the frames
    // pile up faster than they are handled
    const chat = server.store.chat as { message: (fp: string) => Promise<unknown> };
    const lookUp = chat.message;
    chat.message = async (fp) => {
      await new Promise((r) => setTimeout(r, 1));
      return lookUp(fp);
    };
    onTestFinished(() => {
      chat.message = lookUp;
    });
    // receipts of messages the server does not know: each one is looked up and dropped silently
    for (let i = 0; i < 2000; i++) v.socket.send({ type: 104, from: v.id, to: 'robot', fp: `burst-${i}-${randomUUID()}`, dataContent: randomUUID() });
    const texts = ['after the burst 1', 'after the burst 2', 'after the burst 3'].map((text) => v.socket.say(v.id, 100, text));
    const acks: Msg[] = [];
    for (const fp of texts) acks.push(await v.socket.next((m) => m.fp === fp && m.type === 100, 15_000));
    expect(acks.map((m) => m.dataContent)).toEqual(['after the burst 1', 'after the burst 2', 'after the burst 3']);
    expect(acks.map((m) => Number(m.createTime))).toEqual([...acks.map((m) => Number(m.createTime))].sort((a, b) => a - b));
    const open = await Promise.race([v.socket.closed.then(() => false), new Promise<boolean>((r) => setTimeout(() => r(true), 100))]);
    expect(open).toBe(true);
    await v.socket.close();
  });
});
