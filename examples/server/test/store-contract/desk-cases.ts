/**
 * Store contract: canned replies and past conversations (listing, search, paging).
 * @module
 */

import { describe, expect, it } from 'vitest';
import type { CannedReply } from '../../src/store/desk-types.js';
import type { Store } from '../../src/store/types.js';
import { message, session, T0, visitor } from './fixtures.js';

const canned = (id: string, mchId: string, shortcut: string): CannedReply => ({
  id,
  mchId,
  title: `title ${id}`,
  text: `text of ${id}`,
  shortcut,
  createdAt: T0,
});

/** Stores an ended session of `clientId` ended at `endedAt` with one message of `text`. */
async function endedWith(store: Store, sessionId: string, clientId: string, endedAt: number, text: string, mchId = 'mch-1'): Promise<void> {
  await store.chat.createSession(session(sessionId, clientId, { mchId, state: 'ended', endedAt, agentId: 'agent:alice' }));
  await store.chat.insertMessage(message(`fp-${sessionId}`, clientId, endedAt - 10, { sessionId, mchId, dataContent: text }));
}

/** Registers the desk cases against the store `current()` answers. */
export function deskCases(current: () => Store): void {
  describe('canned replies', () => {
    it('add, list by shortcut per merchant, refuse a shortcut twice, remove', async () => {
      const store = current();
      expect(await store.desk.addCanned(canned('c2', 'm1', 'thanks'))).toBe(true);
      expect(await store.desk.addCanned(canned('c1', 'm1', 'hello'))).toBe(true);
      expect(await store.desk.addCanned(canned('c3', 'm2', 'hello'))).toBe(true);
      expect(await store.desk.addCanned(canned('c4', 'm1', 'hello'))).toBe(false);
      expect(await store.desk.cannedReplies('m1')).toEqual([canned('c1', 'm1', 'hello'), canned('c2', 'm1', 'thanks')]);
      expect(await store.desk.removeCanned('m2', 'c1')).toBe(false);
      expect(await store.desk.removeCanned('m1', 'c1')).toBe(true);
      expect(await store.desk.removeCanned('m1', 'c1')).toBe(false);
      expect((await store.desk.cannedReplies('m1')).map((c) => c.id)).toEqual(['c2']);
      expect((await store.desk.cannedReplies('m2')).map((c) => c.id)).toEqual(['c3']);
    });

    it('updates title, text and shortcut in place; a shortcut another reply has is taken; an unknown reply is missing', async () => {
      const store = current();
      await store.desk.addCanned(canned('c1', 'm1', 'hello'));
      await store.desk.addCanned(canned('c2', 'm1', 'thanks'));
      await store.desk.addCanned(canned('c3', 'm2', 'bye'));
      const changed = { ...canned('c1', 'm1', 'hi'), title: 'Hi', text: 'Hi there' };
      expect(await store.desk.updateCanned(changed)).toBe('updated');
      expect(await store.desk.updateCanned({ ...changed, title: 'Same shortcut again' })).toBe('updated');
      expect(await store.desk.updateCanned({ ...canned('c2', 'm1', 'hi'), title: 'steal' })).toBe('taken');
      expect(await store.desk.updateCanned(canned('c3', 'm1', 'bye'))).toBe('missing'); // c3 is m2's
      expect(await store.desk.updateCanned(canned('nope', 'm1', 'nope'))).toBe('missing');
      expect(await store.desk.updateCanned(canned('c3', 'm2', 'hi'))).toBe('updated'); // another merchant's shortcut is free
      expect(await store.desk.cannedReplies('m1')).toEqual([
        { ...changed, title: 'Same shortcut again' },
        canned('c2', 'm1', 'thanks'),
      ]);
      expect((await store.desk.cannedReplies('m2')).map((c) => c.shortcut)).toEqual(['hi']);
    });

    it('orders shortcuts by bytes (upper case first)', async () => {
      const store = current();
      await store.desk.addCanned(canned('a', 'm1', 'b'));
      await store.desk.addCanned(canned('b', 'm1', 'B'));
      await store.desk.addCanned(canned('c', 'm1', 'a'));
      expect((await store.desk.cannedReplies('m1')).map((c) => c.shortcut)).toEqual(['B', 'a', 'b']);
    });
  });

  describe('arrivals', () => {
    it('keeps the latest arrival per visitor and platform, parameters as they were', async () => {
      const store = current();
      expect(await store.desk.arrival('v1', 'm1', 'web')).toBeUndefined();
      await store.desk.saveArrival({ clientId: 'v1', mchId: 'm1', platformId: 'web', params: { cpay: 'ORD-1', 'json.account': 'ann' }, arrivedAt: T0 });
      await store.desk.saveArrival({ clientId: 'v1', mchId: 'm1', platformId: 'app', params: { isapp: '1' }, arrivedAt: T0 + 1 });
      expect(await store.desk.arrival('v1', 'm1', 'web')).toEqual({ clientId: 'v1', mchId: 'm1', platformId: 'web', params: { cpay: 'ORD-1', 'json.account': 'ann' }, arrivedAt: T0 });
      await store.desk.saveArrival({ clientId: 'v1', mchId: 'm1', platformId: 'web', params: { kefuId: '77' }, arrivedAt: T0 + 2 });
      expect(await store.desk.arrival('v1', 'm1', 'web')).toEqual({ clientId: 'v1', mchId: 'm1', platformId: 'web', params: { kefuId: '77' }, arrivedAt: T0 + 2 });
      expect((await store.desk.arrival('v1', 'm1', 'app'))?.params).toEqual({ isapp: '1' });
      expect(await store.desk.arrival('v2', 'm1', 'web')).toBeUndefined();
    });
  });

  describe('past conversations', () => {
    it('lists ended conversations newest ended first, paged, with the visitor name', async () => {
      const store = current();
      await store.chat.saveVisitor(visitor('v1', { name: 'Ann Lee' }));
      await endedWith(store, 's1', 'v1', T0 + 100, 'first');
      await endedWith(store, 's2', 'v2', T0 + 300, 'second');
      await endedWith(store, 's3', 'v1', T0 + 200, 'third');
      await store.chat.createSession(session('open', 'v3', { state: 'active' }));
      const all = await store.desk.pastConversations({ offset: 0, size: 10 });
      expect(all.map((p) => p.sessionId)).toEqual(['s2', 's3', 's1']);
      expect(all[1]).toMatchObject({ clientId: 'v1', visitorName: 'Ann Lee', state: 'ended', endedAt: T0 + 200, agentId: 'agent:alice' });
      expect(all[0]?.visitorName).toBe('');
      expect((await store.desk.pastConversations({ offset: 1, size: 1 })).map((p) => p.sessionId)).toEqual(['s3']);
      expect(await store.desk.pastConversations({ offset: 3, size: 10 })).toEqual([]);
    });

    it('filters by merchant, by visitor id or name, and by message text (case-insensitive, wildcards literal)', async () => {
      const store = current();
      await store.chat.saveVisitor(visitor('v1', { name: 'Ann Lee' }));
      await endedWith(store, 's1', 'v1', T0 + 100, 'Where is my REFUND?');
      await endedWith(store, 's2', 'v2', T0 + 200, 'refund 100% please');
      await endedWith(store, 's3', 'v3', T0 + 300, 'a_b', 'mch-2');
      const ids = async (q: Parameters<Store['desk']['pastConversations']>[0]): Promise<string[]> =>
        (await store.desk.pastConversations(q)).map((p) => p.sessionId);
      expect(await ids({ mchId: 'mch-1', offset: 0, size: 10 })).toEqual(['s2', 's1']);
      expect(await ids({ text: 'refund', offset: 0, size: 10 })).toEqual(['s2', 's1']);
      expect(await ids({ text: '100%', offset: 0, size: 10 })).toEqual(['s2']);
      expect(await ids({ text: '%', offset: 0, size: 10 })).toEqual(['s2']);
      expect(await ids({ text: '_', offset: 0, size: 10 })).toEqual(['s3']);
      expect(await ids({ text: 'a_b', mchId: 'mch-1', offset: 0, size: 10 })).toEqual([]);
      expect(await ids({ visitor: 'v2', offset: 0, size: 10 })).toEqual(['s2']);
      expect(await ids({ visitor: 'ann', offset: 0, size: 10 })).toEqual(['s1']);
      expect(await ids({ visitor: 'ann', text: 'please', offset: 0, size: 10 })).toEqual([]);
      expect(await ids({ visitor: '', text: '', offset: 0, size: 10 })).toEqual(['s3', 's2', 's1']);
      // an agent's merchants: only theirs, none for none
      expect(await ids({ mchIds: ['mch-2'], offset: 0, size: 10 })).toEqual(['s3']);
      expect(await ids({ mchIds: ['mch-2', 'mch-1'], text: 'refund', offset: 0, size: 10 })).toEqual(['s2', 's1']);
      expect(await ids({ mchIds: [], offset: 0, size: 10 })).toEqual([]);
      expect(await ids({ mchIds: ['mch-1'], mchId: 'mch-2', offset: 0, size: 10 })).toEqual([]);
    });

    it('answers a session’s messages oldest first, at most the limit', async () => {
      const store = current();
      await store.chat.createSession(session('s1', 'v1', { state: 'ended', endedAt: T0 + 100 }));
      await store.chat.insertMessage(message('b', 'v1', T0 + 2, { sessionId: 's1' }));
      await store.chat.insertMessage(message('a', 'v1', T0 + 1, { sessionId: 's1' }));
      await store.chat.insertMessage(message('other', 'v1', T0 + 3, { sessionId: 's2' }));
      expect((await store.desk.sessionMessages('s1', 10)).map((m) => m.fp)).toEqual(['a', 'b']);
      expect((await store.desk.sessionMessages('s1', 1)).map((m) => m.fp)).toEqual(['a']);
      expect(await store.desk.sessionMessages('none', 10)).toEqual([]);
    });
  });

  describe('the ended conversations on an agent’s desk', () => {
    it('lists an agent’s ended sessions not closed, newest ended first, with who ended them; closing takes one off', async () => {
      const store = current();
      await store.chat.createSession(session('s1', 'v1', { state: 'ended', agentId: 'agent:alice', endedAt: T0 + 100, endedBy: 'visitor', score: 4, remark: 'ok' }));
      await store.chat.createSession(session('s2', 'v2', { state: 'ended', agentId: 'agent:alice', endedAt: T0 + 300, endedBy: 'agent' }));
      await store.chat.createSession(session('s3', 'v3', { state: 'ended', agentId: 'agent:bob', endedAt: T0 + 200, endedBy: 'visitor' }));
      await store.chat.createSession(session('s4', 'v4', { state: 'active', agentId: 'agent:alice' }));
      const ended = await store.desk.deskEnded('agent:alice', 10);
      expect(ended.map((s) => s.sessionId)).toEqual(['s2', 's1']);
      expect(ended[1]).toMatchObject({ endedBy: 'visitor', score: 4, remark: 'ok', endedAt: T0 + 100 });
      expect((await store.desk.deskEnded('agent:alice', 1)).map((s) => s.sessionId)).toEqual(['s2']);

      expect(await store.desk.closeEnded('s2', 'agent:bob', T0 + 400)).toBe(false);
      expect(await store.desk.closeEnded('s4', 'agent:alice', T0 + 400)).toBe(false);
      expect(await store.desk.closeEnded('s2', 'agent:alice', T0 + 400)).toBe(true);
      expect(await store.desk.closeEnded('s2', 'agent:alice', T0 + 500)).toBe(true);
      expect((await store.desk.deskEnded('agent:alice', 10)).map((s) => s.sessionId)).toEqual(['s1']);
      expect((await store.desk.deskEnded('agent:bob', 10)).map((s) => s.sessionId)).toEqual(['s3']);
    });

    it('lists what an agent transferred until it closes it, not what came back to it; a transfer again opens it again', async () => {
      const store = current();
      await store.chat.createSession(session('s1', 'v1', { state: 'active', agentId: 'agent:alice' }));
      await store.chat.createSession(session('s2', 'v2', { state: 'active', agentId: 'agent:alice' }));
      expect(await store.desk.deskTransferred('agent:alice', 10)).toEqual([]);
      await store.chat.reassign('s1', 'agent:alice', 'agent:bob', T0 + 10, 3);
      await store.chat.reassign('s2', 'agent:alice', 'agent:bob', T0 + 20, 3);
      expect(await store.chat.reassign('s2', 'agent:alice', 'agent:carol', T0 + 30, 3)).toBeUndefined(); // not alice's now: no record
      const listed = await store.desk.deskTransferred('agent:alice', 10);
      expect(listed.map((t) => [t.session.sessionId, t.toAgentId, t.transferredAt])).toEqual([['s2', 'agent:bob', T0 + 20], ['s1', 'agent:bob', T0 + 10]]);
      expect(listed[0]?.session).toMatchObject({ clientId: 'v2', state: 'active', agentId: 'agent:bob' });
      expect((await store.desk.deskTransferred('agent:alice', 1)).map((t) => t.session.sessionId)).toEqual(['s2']);
      expect(await store.desk.deskTransferred('agent:bob', 10)).toEqual([]);
      // still listed after the session ended with bob
      const s1 = await store.chat.session('s1');
      await store.chat.updateSession({ ...s1!, state: 'ended', endedAt: T0 + 40, endedBy: 'visitor' });
      expect((await store.desk.deskTransferred('agent:alice', 10)).map((t) => t.session.sessionId)).toEqual(['s2', 's1']);
      expect(await store.desk.deskEnded('agent:alice', 10)).toEqual([]);

      expect(await store.desk.closeTransferred('s1', 'agent:bob', T0 + 50)).toBe(false);
      expect(await store.desk.closeTransferred('s1', 'agent:alice', T0 + 50)).toBe(true);
      expect(await store.desk.closeTransferred('s1', 'agent:alice', T0 + 60)).toBe(true);
      expect((await store.desk.deskTransferred('agent:alice', 10)).map((t) => t.session.sessionId)).toEqual(['s2']);
      // back to alice: hers again, not listed; then away again: listed anew
      await store.chat.reassign('s2', 'agent:bob', 'agent:alice', T0 + 70, 3);
      expect(await store.desk.deskTransferred('agent:alice', 10)).toEqual([]);
      expect((await store.desk.deskTransferred('agent:bob', 10)).map((t) => t.session.sessionId)).toEqual(['s2']);
      await store.desk.closeTransferred('s2', 'agent:alice', T0 + 75);
      await store.chat.reassign('s2', 'agent:alice', 'agent:carol', T0 + 80, 3);
      expect((await store.desk.deskTransferred('agent:alice', 10)).map((t) => [t.session.sessionId, t.toAgentId])).toEqual([['s2', 'agent:carol']]);
    });

    it('keeps who ended a session through updateSession', async () => {
      const store = current();
      await store.chat.createSession(session('s1', 'v1', { state: 'active', agentId: 'agent:alice' }));
      const open = await store.chat.session('s1');
      expect(open?.endedBy).toBeNull();
      await store.chat.updateSession({ ...open!, state: 'ended', endedAt: T0 + 5, endedBy: 'agent' });
      expect(await store.chat.session('s1')).toMatchObject({ state: 'ended', endedBy: 'agent' });
      expect((await store.desk.deskEnded('agent:alice', 10)).map((s) => s.sessionId)).toEqual(['s1']);
    });
  });
}
