/**
 * Store contract: messages (fp, per-conversation seq, paging), group messages and read state.
 * @module
 */

import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/types.js';
import { fps, groupMessage, MCH, message, PLATFORM, T0 } from './fixtures.js';

/** Stores `count` messages of `clientId`, 10 ms apart from `T0`, fps `<prefix>1`...; answers their fps. */
async function fill(store: Store, clientId: string, count: number, prefix = 'm'): Promise<string[]> {
  const out: string[] = [];
  for (let i = 1; i <= count; i += 1) {
    await store.chat.insertMessage(message(`${prefix}${i}`, clientId, T0 + i * 10));
    out.push(`${prefix}${i}`);
  }
  return out;
}

/** Registers the message cases against the store `current()` answers. */
export function messageCases(current: () => Store): void {
  describe('insertMessage stores a message once per fp and stamps seq per conversation', () => {
    it('round-trips every field and stamps seq on the record', async () => {
      const store = current();
      const m = message('f1', 'v1', T0, { cm: T0 - 1, robot: 1, sessionId: 's1', fa: 'a.png', ta: 'b.png' });
      expect(await store.chat.insertMessage(m)).toBe(true);
      expect(m.seq).toBe(1);
      expect(await store.chat.message('f1')).toEqual({ ...m, seq: 1 });
      expect(await store.chat.message('nope')).toBeUndefined();
    });

    it('round-trips the text key of a server-made text (issue 23), absent on the others', async () => {
      const store = current();
      const greeting = message('g1', 'v1', T0, { robot: 1, textKey: 'greeting' });
      await store.chat.insertMessage(greeting);
      await store.chat.insertMessage(message('g2', 'v1', T0 + 1));
      expect(await store.chat.message('g1')).toEqual({ ...greeting, seq: 1 });
      expect(await store.chat.message('g2')).not.toHaveProperty('textKey');
      const page = await store.chat.conversation('v1', MCH, PLATFORM, { size: 10 });
      expect(page.map((m) => m.textKey)).toEqual(['greeting', undefined]);
    });

    it('a known fp answers false, changes nothing and takes no seq', async () => {
      const store = current();
      await store.chat.insertMessage(message('f1', 'v1', T0));
      const again = message('f1', 'v1', T0 + 5, { dataContent: 'other' });
      expect(await store.chat.insertMessage(again)).toBe(false);
      expect(again.seq).toBeUndefined();
      expect((await store.chat.message('f1'))?.dataContent).toBe('text f1');
      const next = message('f2', 'v1', T0 + 6);
      await store.chat.insertMessage(next);
      expect(next.seq).toBe(2);
    });

    it('numbers each conversation on its own: a visitor per platform, a group', async () => {
      const store = current();
      const stamped = [
        message('a1', 'v1', T0),
        message('b1', 'v2', T0),
        message('a2', 'v1', T0 + 1),
        message('c1', 'v1', T0 + 2, { platformId: 'app' }),
        groupMessage('g1', 'grp', T0),
        groupMessage('g2', 'grp', T0 + 1),
        message('a3', 'v1', T0 + 3),
      ];
      for (const m of stamped) await store.chat.insertMessage(m);
      expect(stamped.map((m) => [m.fp, m.seq])).toEqual([['a1', 1], ['b1', 1], ['a2', 2], ['c1', 1], ['g1', 1], ['g2', 2], ['a3', 3]]);
    });

    it('concurrent inserts into one conversation get distinct seqs; a racing duplicate costs at most one number', async () => {
      const store = current();
      const batch = Array.from({ length: 20 }, (_, i) => message(`p${i}`, 'v1', T0 + i));
      const dup = message('p0', 'v1', T0);
      const results = await Promise.all([...batch, dup].map((m) => store.chat.insertMessage(m)));
      expect(results.filter(Boolean)).toHaveLength(20);
      const stored = (await store.chat.conversation('v1', MCH, PLATFORM, { afterSeq: 0, size: 50 })).map((m) => m.seq ?? 0);
      // PostgreSQL: the duplicate racing its original may bump the counter before it loses on the
      // fp (documented in pg-chat.ts): a gap, which catching up by seq does not mind. Nothing else.
      expect(new Set(stored).size).toBe(20);
      expect(Math.min(...stored)).toBe(1);
      expect(Math.max(...stored)).toBeLessThanOrEqual(21);
    });

    it('maxCreateTime is the newest createTime stored, 0 when none', async () => {
      const store = current();
      expect(await store.chat.maxCreateTime()).toBe(0);
      await store.chat.insertMessage(message('f1', 'v1', T0 + 7));
      await store.chat.insertMessage(groupMessage('g1', 'grp', T0 + 9));
      await store.chat.insertMessage(message('f2', 'v2', T0 + 3));
      expect(await store.chat.maxCreateTime()).toBe(T0 + 9);
    });
  });

  describe('conversation paging: before pages backwards, after and afterSeq forwards, all oldest first', () => {
    it('without bounds: the newest `size`, oldest first', async () => {
      const store = current();
      await fill(store, 'v1', 5);
      await store.chat.insertMessage(message('other', 'v2', T0 + 25));
      expect(fps(await store.chat.conversation('v1', MCH, PLATFORM, { size: 3 }))).toEqual(['m3', 'm4', 'm5']);
      expect(fps(await store.chat.conversation('v1', MCH, PLATFORM, { size: 100 }))).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
    });

    it('before: strictly older, the newest of them first chosen', async () => {
      const store = current();
      await fill(store, 'v1', 5);
      expect(fps(await store.chat.conversation('v1', MCH, PLATFORM, { before: T0 + 40, size: 2 }))).toEqual(['m2', 'm3']);
      expect(fps(await store.chat.conversation('v1', MCH, PLATFORM, { before: T0 + 10, size: 2 }))).toEqual([]);
    });

    it('after: strictly newer, the oldest of them first chosen', async () => {
      const store = current();
      await fill(store, 'v1', 5);
      expect(fps(await store.chat.conversation('v1', MCH, PLATFORM, { after: T0 + 20, size: 2 }))).toEqual(['m3', 'm4']);
      expect(fps(await store.chat.conversation('v1', MCH, PLATFORM, { after: T0 + 50, size: 2 }))).toEqual([]);
    });

    it('before and after together: the window, newest chosen', async () => {
      const store = current();
      await fill(store, 'v1', 6);
      expect(fps(await store.chat.conversation('v1', MCH, PLATFORM, { after: T0 + 10, before: T0 + 60, size: 2 }))).toEqual(['m4', 'm5']);
    });

    it('afterSeq: by sequence whatever the times say, and it wins over before/after', async () => {
      const store = current();
      await store.chat.insertMessage(message('late', 'v1', T0 + 100));
      await store.chat.insertMessage(message('early', 'v1', T0)); // a node whose clock is behind
      await store.chat.insertMessage(message('mid', 'v1', T0 + 50));
      expect(fps(await store.chat.conversation('v1', MCH, PLATFORM, { afterSeq: 0, size: 10 }))).toEqual(['late', 'early', 'mid']);
      expect(fps(await store.chat.conversation('v1', MCH, PLATFORM, { afterSeq: 1, size: 1 }))).toEqual(['early']);
      expect(fps(await store.chat.conversation('v1', MCH, PLATFORM, { afterSeq: 1, before: T0 + 1, after: T0 + 99, size: 10 }))).toEqual([
        'early',
        'mid',
      ]);
      expect(fps(await store.chat.conversation('v1', MCH, PLATFORM, { afterSeq: 3, size: 10 }))).toEqual([]);
    });

    it('leaves out type 104 and clamps size to 1..101', async () => {
      const store = current();
      await fill(store, 'v1', 3);
      await store.chat.insertMessage(message('recall', 'v1', T0 + 35, { type: 104 }));
      expect(fps(await store.chat.conversation('v1', MCH, PLATFORM, { size: 0 }))).toEqual(['m3']);
      expect(fps(await store.chat.conversation('v1', MCH, PLATFORM, { afterSeq: 0, size: 10 }))).toEqual(['m1', 'm2', 'm3']);
      await fill(store, 'v2', 105, 'x');
      expect(await store.chat.conversation('v2', MCH, PLATFORM, { size: 500 })).toHaveLength(101);
    });
  });

  describe('group messages and read state', () => {
    it('groupMessages pages like a conversation, per group', async () => {
      const store = current();
      for (let i = 1; i <= 4; i += 1) await store.chat.insertMessage(groupMessage(`g${i}`, 'grp', T0 + i * 10));
      await store.chat.insertMessage(groupMessage('o1', 'other', T0 + 15));
      expect(fps(await store.chat.groupMessages('grp', { size: 2 }))).toEqual(['g3', 'g4']);
      expect(fps(await store.chat.groupMessages('grp', { before: T0 + 30, size: 5 }))).toEqual(['g1', 'g2']);
      expect(fps(await store.chat.groupMessages('grp', { after: T0 + 10, size: 2 }))).toEqual(['g2', 'g3']);
      expect(fps(await store.chat.groupMessages('grp', { afterSeq: 2, size: 5 }))).toEqual(['g3', 'g4']);
      expect((await store.chat.message('g4'))?.seq).toBe(4);
    });

    it('markRead sets isRead', async () => {
      const store = current();
      await store.chat.insertMessage(message('f1', 'v1', T0));
      await store.chat.markRead('f1');
      await store.chat.markRead('unknown');
      expect((await store.chat.message('f1'))?.isRead).toBe(1);
    });

    it('addGroupRead records a reader once; groupReads lists readers per fp by read time', async () => {
      const store = current();
      expect(await store.chat.addGroupRead('g1', 'v2', T0 + 5)).toBe(true);
      expect(await store.chat.addGroupRead('g1', 'v1', T0 + 1)).toBe(true);
      expect(await store.chat.addGroupRead('g1', 'v1', T0 + 9)).toBe(false);
      expect(await store.chat.addGroupRead('g2', 'v1', T0 + 2)).toBe(true);
      const reads = await store.chat.groupReads(['g1', 'g2', 'g3']);
      expect([...reads.entries()]).toEqual([
        ['g1', [{ clientId: 'v1', readAt: T0 + 1 }, { clientId: 'v2', readAt: T0 + 5 }]],
        ['g2', [{ clientId: 'v1', readAt: T0 + 2 }]],
        ['g3', []],
      ]);
      expect((await store.chat.groupReads([])).size).toBe(0);
    });

    it('groupReads: readers of one millisecond are listed by client id (byte order); an fp asked twice is answered once, where first asked', async () => {
      const store = current();
      for (const reader of ['zed', 'Bob', 'amy']) await store.chat.addGroupRead('g1', reader, T0 + 5);
      await store.chat.addGroupRead('g1', 'carl', T0 + 1);
      await store.chat.addGroupRead('g2', 'v1', T0);
      const reads = await store.chat.groupReads(['g2', 'g1', 'g0', 'g2']);
      expect([...reads.keys()]).toEqual(['g2', 'g1', 'g0']);
      expect(reads.get('g1')?.map((r) => r.clientId)).toEqual(['carl', 'Bob', 'amy', 'zed']);
      expect(reads.get('g2')).toEqual([{ clientId: 'v1', readAt: T0 }]);
      expect(reads.get('g0')).toEqual([]);
    });
  });
}
