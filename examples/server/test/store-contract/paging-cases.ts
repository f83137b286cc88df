/**
 * Store contract: how a page query's bounds and size select messages, at the edges where the
 * two stores once answered differently (fractional, NaN, infinite and huge bounds; NaN sizes;
 * messages of one millisecond). Every case runs on a conversation and on a group.
 * @module
 */

import { describe, expect, it } from 'vitest';
import type { MessageRecord, PageQuery, Store } from '../../src/store/types.js';
import { fps, groupMessage, MCH, message, PLATFORM, T0 } from './fixtures.js';

/** One place messages are paged in: a message there, and a page of it. */
interface Scope {
  name: string;
  make(fp: string, createTime: number): MessageRecord;
  page(store: Store, query: PageQuery): Promise<MessageRecord[]>;
}

const SCOPES: readonly Scope[] = [
  {
    name: 'conversation',
    make: (fp, createTime) => message(fp, 'v1', createTime),
    page: (store, query) => store.chat.conversation('v1', MCH, PLATFORM, query),
  },
  {
    name: 'groupMessages',
    make: (fp, createTime) => groupMessage(fp, 'grp', createTime),
    page: (store, query) => store.chat.groupMessages('grp', query),
  },
];

/** Stores m1..m5 at T0 + 10, ..., T0 + 50 (seq 1..5). */
async function fillFive(store: Store, scope: Scope): Promise<void> {
  for (let i = 1; i <= 5; i += 1) await store.chat.insertMessage(scope.make(`m${i}`, T0 + i * 10));
}

/** The fps of a page. */
const pageFps = async (store: Store, scope: Scope, query: PageQuery): Promise<string[]> => fps(await scope.page(store, query));

/** Registers the paging edge cases against the store `current()` answers. */
export function pagingCases(current: () => Store): void {
  for (const scope of SCOPES) {
    describe(`${scope.name} paging at the edges: both stores select what the bounds' own comparisons say`, () => {
      it('fractional bounds select what exact comparisons would (times and seq are integers)', async () => {
        const store = current();
        await fillFive(store, scope);
        expect(await pageFps(store, scope, { before: T0 + 30.5, size: 10 })).toEqual(['m1', 'm2', 'm3']);
        expect(await pageFps(store, scope, { after: T0 + 30.5, size: 10 })).toEqual(['m4', 'm5']);
        expect(await pageFps(store, scope, { after: T0 + 10.5, before: T0 + 40.5, size: 10 })).toEqual(['m2', 'm3', 'm4']);
        expect(await pageFps(store, scope, { afterSeq: 2.5, size: 10 })).toEqual(['m3', 'm4', 'm5']);
      });

      it('a NaN bound selects nothing: no time or seq is above or below NaN', async () => {
        const store = current();
        await fillFive(store, scope);
        expect(await pageFps(store, scope, { before: Number.NaN, size: 10 })).toEqual([]);
        expect(await pageFps(store, scope, { after: Number.NaN, size: 10 })).toEqual([]);
        expect(await pageFps(store, scope, { after: T0, before: Number.NaN, size: 10 })).toEqual([]);
        expect(await pageFps(store, scope, { afterSeq: Number.NaN, size: 10 })).toEqual([]);
      });

      it('bounds past the safe integers (and infinite ones) let every message through, or none', async () => {
        const store = current();
        await fillFive(store, scope);
        const all = ['m1', 'm2', 'm3', 'm4', 'm5'];
        expect(await pageFps(store, scope, { before: 1e300, size: 10 })).toEqual(all);
        expect(await pageFps(store, scope, { before: Number.POSITIVE_INFINITY, size: 10 })).toEqual(all);
        expect(await pageFps(store, scope, { after: -1e300, size: 10 })).toEqual(all);
        expect(await pageFps(store, scope, { after: Number.NEGATIVE_INFINITY, size: 10 })).toEqual(all);
        expect(await pageFps(store, scope, { afterSeq: Number.NEGATIVE_INFINITY, size: 10 })).toEqual(all);
        expect(await pageFps(store, scope, { afterSeq: -5, size: 10 })).toEqual(all);
        expect(await pageFps(store, scope, { before: -1e300, size: 10 })).toEqual([]);
        expect(await pageFps(store, scope, { after: 1e300, size: 10 })).toEqual([]);
        expect(await pageFps(store, scope, { afterSeq: 1e300, size: 10 })).toEqual([]);
        expect(await pageFps(store, scope, { afterSeq: Number.POSITIVE_INFINITY, size: 10 })).toEqual([]);
      });

      it('size: a fraction is truncated, an infinite size clamped to 1..101, a NaN size refused with a clear error', async () => {
        const store = current();
        await fillFive(store, scope);
        expect(await pageFps(store, scope, { size: 2.7 })).toEqual(['m4', 'm5']);
        expect(await pageFps(store, scope, { size: Number.NEGATIVE_INFINITY })).toEqual(['m5']);
        expect(await pageFps(store, scope, { size: Number.POSITIVE_INFINITY })).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
        await expect(scope.page(store, { size: Number.NaN })).rejects.toThrow(/page size must be a number/);
      });

      it('messages of one millisecond page in the order they were stored, backwards and forwards', async () => {
        const store = current();
        for (const fp of ['b', 'a', 'd', 'c']) await store.chat.insertMessage(scope.make(fp, T0));
        await store.chat.insertMessage(scope.make('later', T0 + 1));
        expect(await pageFps(store, scope, { size: 10 })).toEqual(['b', 'a', 'd', 'c', 'later']);
        expect(await pageFps(store, scope, { before: T0 + 1, size: 2 })).toEqual(['d', 'c']);
        expect(await pageFps(store, scope, { after: T0 - 1, size: 3 })).toEqual(['b', 'a', 'd']);
        expect(await pageFps(store, scope, { after: T0 - 1, before: T0 + 1, size: 3 })).toEqual(['a', 'd', 'c']);
      });
    });
  }
}
