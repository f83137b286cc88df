/**
 * Store contract: transactions commit together or not at all.
 * @module
 */

import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/types.js';
import { MCH, message, PLATFORM, session, T0, visitor } from './fixtures.js';

/** Registers the transaction cases against the store `current()` answers. */
export function transactionCases(current: () => Store): void {
  describe('transaction: every call made through tx commits together or not at all', () => {
    it('commits and answers what fn answers', async () => {
      const store = current();
      const answer = await store.transaction(async (tx) => {
        await tx.chat.saveVisitor(visitor('v1'));
        await tx.chat.createSession(session('s1', 'v1'));
        const m = message('f1', 'v1', T0);
        await tx.chat.insertMessage(m);
        await tx.setMeta('k', 'v');
        return m.seq;
      });
      expect(answer).toBe(1);
      expect(await store.chat.visitor('v1')).toBeDefined();
      expect(await store.chat.session('s1')).toBeDefined();
      expect((await store.chat.message('f1'))?.seq).toBe(1);
      expect(await store.meta('k')).toBe('v');
    });

    it('rolls everything back when fn rejects, seq counters included, and rejects with its error', async () => {
      const store = current();
      const failure = new Error('boom');
      await expect(
        store.transaction(async (tx) => {
          await tx.chat.saveVisitor(visitor('v1'));
          await tx.chat.insertMessage(message('f1', 'v1', T0));
          await tx.identity.putAgentToken('tok', 'alice', T0, T0 + 100);
          throw failure;
        }),
      ).rejects.toBe(failure);
      expect(await store.chat.visitor('v1')).toBeUndefined();
      expect(await store.chat.message('f1')).toBeUndefined();
      expect(await store.identity.useAgentToken('tok', T0, T0 + 100)).toBeUndefined();
      const m = message('f2', 'v1', T0);
      await store.chat.insertMessage(m);
      expect(m.seq).toBe(1);
    });

    it('a known fp inside a transaction answers false and the rest commits', async () => {
      const store = current();
      await store.transaction(async (tx) => {
        expect(await tx.chat.insertMessage(message('f1', 'v1', T0))).toBe(true);
        expect(await tx.chat.insertMessage(message('f1', 'v1', T0))).toBe(false);
        expect(await tx.chat.insertMessage(message('f2', 'v1', T0 + 1))).toBe(true);
      });
      expect((await store.chat.conversation('v1', MCH, PLATFORM, { afterSeq: 0, size: 10 })).map((m) => [m.fp, m.seq])).toEqual([
        ['f1', 1],
        ['f2', 2],
      ]);
    });

    it('a failed call that fn catches is undone alone; the rest commits', async () => {
      const store = current();
      await store.keys.create({ saltKey: 's1', requestKey: 'rk', aesKey: 'a', token: 't', createdAt: T0, lastUsed: T0 });
      await store.transaction(async (tx) => {
        await tx.chat.saveVisitor(visitor('v1'));
        await expect(tx.keys.create({ saltKey: 's1', requestKey: 'rk', aesKey: 'a', token: 't', createdAt: T0, lastUsed: T0 })).rejects.toThrow();
        await tx.chat.saveVisitor(visitor('v2'));
      });
      expect(await store.chat.visitor('v1')).toBeDefined();
      expect(await store.chat.visitor('v2')).toBeDefined();
    });

    it('transactions do not nest', async () => {
      const store = current();
      await expect(store.transaction((tx) => tx.transaction(async () => 1))).rejects.toThrow(/nest/);
    });

    it('calls through the outer store are not part of a transaction that rolls back', async () => {
      const store = current();
      let outside: Promise<void> | undefined;
      await expect(
        store.transaction(async (tx) => {
          await tx.chat.saveVisitor(visitor('inside'));
          outside = store.chat.saveVisitor(visitor('outside'));
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      await outside;
      expect(await store.chat.visitor('inside')).toBeUndefined();
      expect(await store.chat.visitor('outside')).toBeDefined();
    });
  });
}
