import { describe, expect, it, vi } from 'vitest';
import { MessageList } from './message-list.js';
import type { StoredMessage } from './types.js';

const msg = (fp: string | undefined, fields: Partial<StoredMessage> = {}): StoredMessage => ({ type: 100, fp, dataContent: fp ?? 'x', ...fields });
const fps = (list: MessageList): (string | undefined)[] => list.getSnapshot().map((m) => m.fp);

describe('"a receiver keeps at most one message per fp" (protocol §4)', () => {
  it('merges a duplicate instead of showing it twice', () => {
    const list = new MessageList();
    list.upsert(msg('a', { createTime: 1 }));
    list.upsert(msg('a', { createTime: 1 }));
    expect(list.size).toBe(1);
    expect(fps(list)).toEqual(['a']);
  });

  it('lets later fields win', () => {
    const list = new MessageList();
    list.upsert(msg('a', { createTime: 1, dataContent: 'old', fn: 'Ann' }));
    const merged = list.upsert({ type: 100, fp: 'a', dataContent: 'new', fn: undefined });
    expect(merged).toMatchObject({ dataContent: 'new', fn: 'Ann', createTime: 1 });
  });

  it('keeps the server createTime already held', () => {
    const list = new MessageList();
    list.upsert(msg('a', { createTime: 1000 }));
    expect(list.upsert(msg('a', { createTime: 2000 })).createTime).toBe(1000);
  });

  it('never turns isRead: 1 back to 0', () => {
    const list = new MessageList();
    list.upsert(msg('a', { createTime: 1, isRead: 1 }));
    expect(list.upsert(msg('a', { isRead: 0 })).isRead).toBe(1);
    expect(list.patch('a', { isRead: 0 })?.isRead).toBe(1);
  });

  it('unites group read lists by clientId', () => {
    const list = new MessageList();
    list.upsert(msg('g', { createTime: 1, imGroupMsgReadList: [{ clientId: 'u1' }] }));
    const m = list.upsert(msg('g', { imGroupMsgReadList: [{ clientId: 'u2' }, { clientId: 'u1' }] }));
    expect(m.imGroupMsgReadList?.map((e) => e.clientId)).toEqual(['u1', 'u2']);
  });

  it('marks a pending message sent when the server echo brings its createTime', () => {
    const list = new MessageList();
    list.upsert(msg('a', { times: 5, sendState: 'pending' }));
    const acked = list.upsert(msg('a', { createTime: 9 }));
    expect(acked.sendState).toBe('sent');
  });

  it('drops failReason once a message is no longer failed', () => {
    const list = new MessageList();
    list.upsert(msg('a', { sendState: 'failed', failReason: 'too-frequent' }));
    expect(list.upsert(msg('a', { sendState: 'pending' }))).not.toHaveProperty('failReason');
  });

  it('never merges messages without fp, and gives each a stable key', () => {
    const list = new MessageList();
    const one = list.upsert(msg(undefined, { createTime: 1 }));
    const two = list.upsert(msg(undefined, { createTime: 1 }));
    expect(list.size).toBe(2);
    const k1 = list.keyOf(one);
    const k2 = list.keyOf(two);
    expect(k1).toBeDefined();
    expect(k1).not.toBe(k2);
    const patched = list.patch(k1 as string, { dataContent: 'changed' });
    expect(list.keyOf(patched as StoredMessage)).toBe(k1);
    expect(list.get(k1 as string)?.dataContent).toBe('changed');
    expect(list.remove(k2 as string)).toBe(true);
    expect(list.size).toBe(1);
  });

  it('finds an fp that starts with "~" like a generated key, and a generated key, each in its own index', () => {
    const list = new MessageList();
    const tilde = list.upsert(msg('~1', { createTime: 1 }));
    const wire = list.upsert(msg('~local:1', { createTime: 2 })); // a server fp that looks like a generated key
    const local = list.upsert(msg(undefined, { createTime: 3 }));
    expect(list.get('~1')).toBe(tilde);
    expect(list.get('~local:1')).toBe(wire);
    const key = list.keyOf(local) as string;
    expect(key.startsWith('~local:')).toBe(true);
    expect(list.get(key)).toBe(key === '~local:1' ? wire : local);
    expect(list.has('~nothing')).toBe(false);
    expect(list.get('x')).toBeUndefined();
  });

  it('stores a copy, so later changes to the caller\'s object do not leak in', () => {
    const list = new MessageList();
    const input = msg('a', { createTime: 1 });
    list.upsert(input);
    input.dataContent = 'mutated';
    expect(list.get('a')?.dataContent).toBe('a');
  });

  it('refuses a non-object with a clear error', () => {
    const list = new MessageList();
    expect(() => list.upsert(null as never)).toThrow(/must be an object/);
    expect(() => list.upsertMany([msg('a'), 5 as never])).toThrow(/index 1/);
    expect(list.size).toBe(0);
  });
});

describe('order: by time (createTime, else times), stable for equal times, pending last in send order', () => {
  it('sorts by createTime, else times, in ms whatever their format', () => {
    const list = new MessageList();
    list.upsert(msg('c', { createTime: 3000 }));
    list.upsert(msg('a', { times: '1000' }));
    list.upsert(msg('b', { createTime: new Date(2000).toISOString() }));
    list.upsert(msg('z', { createTime: 0 }));
    expect(fps(list)).toEqual(['z', 'a', 'b', 'c']);
  });

  it('keeps arrival order for equal times', () => {
    const list = new MessageList();
    for (const fp of ['x', 'y', 'z']) list.upsert(msg(fp, { createTime: 5 }));
    list.upsert(msg('w', { createTime: 4 }));
    expect(fps(list)).toEqual(['w', 'x', 'y', 'z']);
  });

  it('puts pending messages after the rest, in send order, and moves them when acknowledged', () => {
    const list = new MessageList();
    list.upsert(msg('p1', { times: 100, sendState: 'pending' }));
    list.upsert(msg('p2', { times: 50, sendState: 'pending' }));
    list.upsert(msg('r1', { createTime: 200 }));
    expect(fps(list)).toEqual(['r1', 'p1', 'p2']);
    list.upsert(msg('p2', { createTime: 150 }));
    expect(fps(list)).toEqual(['p2', 'r1', 'p1']);
    list.upsert(msg('r2', { createTime: 300 }));
    expect(fps(list)).toEqual(['p2', 'r1', 'r2', 'p1']);
  });

  it('keeps messages with no readable time after the timed ones', () => {
    const list = new MessageList();
    list.upsert(msg('n', { times: 'garbage' }));
    list.upsert(msg('t', { createTime: 1 }));
    expect(fps(list)).toEqual(['t', 'n']);
  });

  it('matches a full sort after random inserts, merges, patches and removals', () => {
    let seed = 7;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const list = new MessageList();
    const model = new Map<string, { time: number; rank: number; seq: number }>();
    let seq = 0;
    for (let i = 0; i < 3000; i++) {
      const fp = `m${rand(400)}`;
      const op = rand(10);
      if (op < 6) {
        const createTime = rand(50);
        list.upsert(msg(fp, { createTime }));
        const prev = model.get(fp);
        if (!prev) model.set(fp, { time: createTime, rank: 0, seq: ++seq });
        else if (prev.rank === 1) model.set(fp, { ...prev, time: createTime, rank: 0 });
      } else if (op < 8) {
        if (!model.has(fp)) {
          list.upsert(msg(fp, { sendState: 'pending' }));
          model.set(fp, { time: 0, rank: 1, seq: ++seq });
        } else {
          list.patch(fp, { dataContent: `v${i}` });
        }
      } else {
        expect(list.remove(fp)).toBe(model.delete(fp));
      }
      if (i % 500 === 0) {
        const batch = Array.from({ length: 100 }, (_, j) => msg(`b${i}-${j}`, { createTime: rand(50) }));
        list.upsertMany(batch);
        for (const m of batch) model.set(m.fp as string, { time: m.createTime as number, rank: 0, seq: ++seq });
      }
    }
    const expected = [...model.entries()].sort(([, a], [, b]) => a.rank - b.rank || a.time - b.time || a.seq - b.seq).map(([fp]) => fp);
    expect(fps(list)).toEqual(expected);
    expect(list.size).toBe(model.size);
    for (const [i, fp] of expected.entries()) if (i % 97 === 0) expect(list.indexOf(fp)).toBe(i);
    for (const m of list.getSnapshot()) expect(list.get(m.fp as string)).toBe(m);
  });
});

describe('useSyncExternalStore: subscribe/getSnapshot', () => {
  it('keeps the snapshot identity while nothing changes', () => {
    const list = new MessageList();
    list.upsert(msg('a', { createTime: 1 }));
    const snap = list.getSnapshot();
    expect(list.getSnapshot()).toBe(snap);
    list.upsert(msg('a', { createTime: 1, dataContent: 'a' }));
    expect(list.getSnapshot()).toBe(snap);
    expect(Object.isFrozen(snap)).toBe(true);
  });

  it('keeps unchanged messages as the same objects so only changed rows re-render', () => {
    const list = new MessageList();
    list.upsertMany([msg('a', { createTime: 1 }), msg('b', { createTime: 2 })]);
    const [a1, b1] = list.getSnapshot();
    list.patch('b', { isRead: 1 });
    const [a2, b2] = list.getSnapshot();
    expect(a2).toBe(a1);
    expect(b2).not.toBe(b1);
    expect(b2?.isRead).toBe(1);
  });

  it('notifies on change only', () => {
    const list = new MessageList();
    const listener = vi.fn();
    const off = list.subscribe(listener);
    const first = list.upsert(msg('a', { createTime: 1 }));
    expect(list.upsert(msg('a', { createTime: 1 }))).toBe(first);
    expect(list.patch('a', {})).toBe(first);
    expect(list.patch('missing', { isRead: 1 })).toBeUndefined();
    expect(list.remove('missing')).toBe(false);
    expect(listener).toHaveBeenCalledTimes(1);
    off();
    list.upsert(msg('b'));
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('notifies once for upsertMany', () => {
    const list = new MessageList();
    const listener = vi.fn();
    list.subscribe(listener);
    list.upsertMany(Array.from({ length: 200 }, (_, i) => msg(`m${i}`, { createTime: 200 - i })));
    list.upsertMany([msg('x', { createTime: 1 }), msg('y', { createTime: 2 })]);
    expect(listener).toHaveBeenCalledTimes(2);
    expect(list.getSnapshot()[0]?.fp).toBe('m199');
    list.upsertMany([msg('x', { createTime: 1 })]);
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('runs every listener even when one throws, then reports the error', () => {
    const list = new MessageList();
    const good = vi.fn();
    list.subscribe(() => {
      throw new Error('broken row');
    });
    list.subscribe(good);
    expect(() => list.upsert(msg('a'))).toThrow('broken row');
    expect(good).toHaveBeenCalledTimes(1);
    expect(list.has('a')).toBe(true);
  });

  it('works with subscribe and getSnapshot detached from the list', () => {
    const list = new MessageList();
    const { subscribe, getSnapshot } = list;
    const listener = vi.fn();
    subscribe(listener);
    list.upsert(msg('a'));
    expect(getSnapshot()).toHaveLength(1);
    expect(listener).toHaveBeenCalled();
  });
});

describe('newestTime / oldestTime: fetching what was missed after reconnect, paging older history', () => {
  it('newestTime is the newest server createTime held', () => {
    const list = new MessageList();
    expect(list.newestTime()).toBeUndefined();
    list.upsert(msg('a', { createTime: 100 }));
    list.upsert(msg('b', { times: 500 }));
    list.upsert(msg('c', { sendState: 'pending' }));
    expect(list.newestTime()).toBe(100);
    list.upsert(msg('c', { createTime: '2024-01-01 00:00:00' }));
    expect(list.newestTime()).toBe(new Date(2024, 0, 1).getTime());
    list.remove('c');
    expect(list.newestTime()).toBe(100);
  });

  it('oldestTime is the time of the oldest timed message', () => {
    const list = new MessageList();
    list.upsert(msg('p', { sendState: 'pending' }));
    expect(list.oldestTime()).toBeUndefined();
    list.upsert(msg('a', { createTime: 300 }));
    list.upsert(msg('b', { createTime: 200 }));
    expect(list.oldestTime()).toBe(200);
  });
});

describe('get, has, patch, remove, clear, size', () => {
  it('behaves as a keyed collection', () => {
    const list = new MessageList();
    list.upsertMany([msg('a', { createTime: 1 }), msg('b', { createTime: 2 })]);
    expect(list.has('a')).toBe(true);
    expect(list.get('b')?.createTime).toBe(2);
    expect(list.patch('a', { failReason: undefined, fn: 'N' })?.fn).toBe('N');
    expect(list.patch('a', { fn: undefined })).not.toHaveProperty('fn');
    expect(list.remove('a')).toBe(true);
    expect(list.has('a')).toBe(false);
    expect(list.indexOf('b')).toBe(0);
    const listener = vi.fn();
    list.subscribe(listener);
    list.clear();
    list.clear();
    expect(list.size).toBe(0);
    expect(list.getSnapshot()).toEqual([]);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('does not let a patch change the fp', () => {
    const list = new MessageList();
    list.upsert(msg('a'));
    expect(list.patch('a', { fp: 'b' })?.fp).toBe('a');
    expect(list.has('b')).toBe(false);
  });
});

describe('coalesce: a burst of incoming messages notifies once per burst', () => {
  it('the first change notifies at once; the rest of the burst once, when the microtasks run; other changes at once', async () => {
    const list = new MessageList();
    const seen: number[] = [];
    list.subscribe(() => seen.push(list.getSnapshot().length));
    list.coalesce(() => list.upsert(msg('a', { createTime: 1 })));
    expect(seen).toEqual([1]);
    list.coalesce(() => list.upsert(msg('b', { createTime: 2 })));
    list.coalesce(() => list.upsert(msg('c', { createTime: 3 })));
    expect(seen).toEqual([1]);
    expect(list.getSnapshot().map((m) => m.fp)).toEqual(['a', 'b', 'c']); // the data is there at once
    await Promise.resolve();
    expect(seen).toEqual([1, 3]);
    // a new burst starts after the microtasks; a plain change inside a burst notifies at once
    list.coalesce(() => list.upsert(msg('d', { createTime: 4 })));
    list.coalesce(() => list.upsert(msg('e', { createTime: 5 })));
    list.upsert(msg('f', { createTime: 6 }));
    expect(seen).toEqual([1, 3, 4, 6]);
    await Promise.resolve();
    expect(seen).toEqual([1, 3, 4, 6]); // nothing left to notify
  });
});

describe('endBurst: the burst ends when the given scheduler says (the client: a zero-delay timer)', () => {
  it('frames handled in separate tasks share one burst until it ends: one notification for them', async () => {
    const ends: (() => void)[] = [];
    const list = new MessageList({ endBurst: (end) => ends.push(end) });
    const seen: number[] = [];
    list.subscribe(() => seen.push(list.getSnapshot().length));
    list.upsertCoalesced(msg('a', { createTime: 1 }));
    expect(seen).toEqual([1]); // the first at once
    await new Promise((r) => setTimeout(r, 0)); // another task
    list.upsertCoalesced(msg('b', { createTime: 2 }));
    await new Promise((r) => setTimeout(r, 0));
    list.upsertCoalesced(msg('c', { createTime: 3 }));
    expect(seen).toEqual([1]);
    expect(list.getSnapshot()).toHaveLength(3); // reads see every change at once
    expect(ends).toHaveLength(1); // one burst
    ends[0]!();
    expect(seen).toEqual([1, 3]);
    list.upsertCoalesced(msg('d', { createTime: 4 })); // a new burst: at once again
    expect(seen).toEqual([1, 3, 4]);
    expect(ends).toHaveLength(2);
    ends[1]!();
    expect(seen).toEqual([1, 3, 4]); // nothing deferred, nothing told twice
  });
});

describe('upsertCoalesced: an incoming message stored under the same burst rule as coalesce', () => {
  it('stores a copy like upsert, notifies at once for the first of a burst and once for the rest', async () => {
    const list = new MessageList();
    const seen: number[] = [];
    list.subscribe(() => seen.push(list.getSnapshot().length));
    const a = msg('a', { createTime: 1 });
    const stored = list.upsertCoalesced(a);
    expect(stored).toEqual(a);
    expect(stored).not.toBe(a);
    expect(list.get('a')).toBe(stored);
    expect(seen).toEqual([1]);
    list.upsertCoalesced(msg('b', { createTime: 2 }));
    list.coalesce(() => list.upsert(msg('c', { createTime: 3 }))); // the two kinds share one burst
    list.upsertCoalesced(msg('a', { createTime: 1, dataContent: 'edited' }));
    expect(seen).toEqual([1]);
    await Promise.resolve();
    expect(seen).toEqual([1, 3]);
    expect(list.get('a')?.dataContent).toBe('edited');
    list.upsertCoalesced(msg('d', { createTime: 4 })); // a new burst
    expect(seen).toEqual([1, 3, 4]);
  });
});
