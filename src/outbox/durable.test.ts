import { describe, expect, it } from 'vitest';
import { memoryStorage } from '../state/storage.js';
import { DurableOutbox, OUTBOX_JOURNAL_PREFIX, outboxScope } from './durable.js';
import { memoryOutboxStorage, type OutboxStorage } from './storage.js';

function make(storage: OutboxStorage = memoryOutboxStorage(), now = () => 1000, fileCap = 10) {
  const errors: Error[] = [];
  let scope = 'v1|7|9|';
  const durable = new DurableOutbox({ storage, scope: () => scope, now, fileCap, onError: (e) => errors.push(e) });
  return { durable, storage, errors, setScope: (s: string) => (scope = s) };
}

const text = (fp: string) => ({ type: 100, fp, dataContent: fp });

describe('composition numbers grow in the order messages are composed, across reloads', () => {
  it('draws increasing numbers even within one millisecond, and keeps a message its number', () => {
    const { durable } = make();
    expect([durable.seqOf('a'), durable.seqOf('b'), durable.seqOf('c'), durable.seqOf('a')]).toEqual([1000, 1001, 1002, 1000]);
  });

  it('a new page continues after the restored numbers', async () => {
    const storage = memoryOutboxStorage();
    await storage.put('v1|7|9|', { fp: 'old', seq: 5000, message: text('old') });
    const { durable } = make(storage, () => 1000);
    await durable.restore();
    expect(durable.seqOf('new')).toBe(5001);
  });
});

describe('writes reach the storage in the order they were made', () => {
  it('a keep followed by a drop leaves nothing; restore returns composition order', async () => {
    const { durable, storage } = make();
    for (const fp of ['c', 'a', 'b']) durable.seqOf(fp);
    durable.keep(text('b'));
    durable.keep(text('a'));
    durable.keep(text('gone'));
    durable.drop('gone');
    durable.keep(text('c'));
    await durable.flush();
    expect((await storage.load('v1|7|9|')).map((r) => r.fp).sort()).toEqual(['a', 'b', 'c']);
    expect((await make(storage).durable.restore()).map((r) => r.fp)).toEqual(['c', 'a', 'b']);
  });

  it('drops a message from the scope it was kept in, even after the scope changed', async () => {
    const { durable, storage, setScope } = make();
    durable.keep(text('m'));
    setScope('v2|7|9|');
    durable.drop('m');
    await durable.flush();
    expect(await storage.load('v1|7|9|')).toEqual([]);
  });

  it('a failing storage is reported, never thrown, and later writes still run', async () => {
    const memory = memoryOutboxStorage();
    let fail = true;
    const storage: OutboxStorage = {
      load: () => (fail ? Promise.reject(new Error('load refused')) : memory.load('v1|7|9|')),
      put: (s, r) => (fail ? Promise.reject(new Error('quota')) : memory.put(s, r)),
      remove: (s, fp) => memory.remove(s, fp),
    };
    const { durable, errors } = make(storage);
    expect(await durable.restore()).toEqual([]);
    durable.keep(text('a'));
    await durable.flush();
    fail = false;
    durable.keep(text('b'));
    await durable.flush();
    expect(errors.map((e) => e.message)).toEqual(['load refused', 'quota']);
    expect((await memory.load('v1|7|9|')).map((r) => r.fp)).toEqual(['b']);
  });
});

describe('the journal: a text is noted synchronously until its asynchronous write has landed', () => {
  /** A storage whose writes never land (the tab closed while IndexedDB was writing). */
  const stalled = (): OutboxStorage => ({ load: async () => [], put: () => new Promise<void>(() => undefined), remove: async () => undefined });
  const journaled = (storage: OutboxStorage, journal = memoryStorage()) => {
    const durable = new DurableOutbox({ storage, scope: () => 'v1|7|9|', now: () => 1000, fileCap: 10, onError: () => undefined, journal });
    return { durable, journal };
  };

  it('a text whose write never landed comes back on the next page, in order, and is stored then', async () => {
    const { durable, journal } = journaled(stalled());
    durable.keep(text('a'));
    durable.keep(text('b'));
    const storage = memoryOutboxStorage();
    const next = journaled(storage, journal).durable;
    expect((await next.restore()).map((r) => r.fp)).toEqual(['a', 'b']);
    await next.flush();
    expect((await storage.load('v1|7|9|')).map((r) => r.fp).sort()).toEqual(['a', 'b']);
    expect(journal.getItem(`${OUTBOX_JOURNAL_PREFIX}v1|7|9|`)).toBeNull();
  });

  it('is empty once the writes landed, and a dropped text is not noted again', async () => {
    const storage = memoryOutboxStorage();
    const { durable, journal } = journaled(storage);
    durable.keep(text('a'));
    expect(journal.getItem(`${OUTBOX_JOURNAL_PREFIX}v1|7|9|`)).toContain('"a"');
    durable.keep(text('b'));
    durable.drop('b');
    await durable.flush();
    expect(journal.getItem(`${OUTBOX_JOURNAL_PREFIX}v1|7|9|`)).toBeNull();
    expect((await journaled(storage, journal).durable.restore()).map((r) => r.fp)).toEqual(['a']);
  });

  it('a text acknowledged before its write landed is not restored; garbage in the journal is ignored', async () => {
    const { durable, journal } = journaled(stalled());
    durable.keep(text('a'));
    durable.drop('a');
    journal.setItem(`${OUTBOX_JOURNAL_PREFIX}v1|7|9|`, journal.getItem(`${OUTBOX_JOURNAL_PREFIX}v1|7|9|`) ?? '{"x":null,"y":{"fp":"y"}}');
    expect(await journaled(memoryOutboxStorage(), journal).durable.restore()).toEqual([]);
    journal.setItem(`${OUTBOX_JOURNAL_PREFIX}v1|7|9|`, 'not json');
    expect(await journaled(memoryOutboxStorage(), journal).durable.restore()).toEqual([]);
  });

  it('notes no file (its bytes stay in IndexedDB), and forget() clears the journal and the storage of a scope', async () => {
    const storage = memoryOutboxStorage();
    const { durable, journal } = journaled(stalled());
    durable.keep(text('f'), { name: 'a', kind: 'file', size: 1, mime: '' });
    expect(journal.getItem(`${OUTBOX_JOURNAL_PREFIX}v1|7|9|`)).toBeNull();
    durable.keep(text('t'));
    await storage.put('v1|7|9|', { fp: 's', seq: 1, message: text('s') });
    const other = journaled(storage, journal).durable;
    await other.forget('v1|7|9|');
    expect(journal.getItem(`${OUTBOX_JOURNAL_PREFIX}v1|7|9|`)).toBeNull();
    expect(await other.restore()).toEqual([]);
  });
});

describe('files are kept under a total cap', () => {
  it('counts the files kept, not the one being replaced, and frees a dropped one', () => {
    const { durable } = make(undefined, () => 1, 10);
    const blob = (n: number) => new Blob([new Uint8Array(n)]);
    expect(durable.fits('f1', 6)).toBe(true);
    durable.keep(text('f1'), { blob: blob(6), name: 'a', kind: 'file', size: 6, mime: '' });
    expect(durable.fits('f2', 5)).toBe(false);
    expect(durable.fits('f1', 10)).toBe(true);
    durable.drop('f1');
    expect(durable.fits('f2', 10)).toBe(true);
  });
});

describe('outboxScope', () => {
  it('is the client id with merchant, platform and group', () => {
    expect(outboxScope('c1', { mchId: 7, platformId: '9' })).toBe('c1|7|9|');
    expect(outboxScope('c1', { mchId: 7, platformId: 9, groupId: 'g' })).toBe('c1|7|9|g');
  });
});

describe('an agent’s pending texts belong to its account, not to the page’s client id', () => {
  it('two pages (two client ids) of one agent share the scope; another agent and a visitor do not', () => {
    const alice = { role: 'agent', account: 'alice', token: 't' };
    expect(outboxScope('page-1', alice)).toBe(outboxScope('page-2', { ...alice, password: 'pw' }));
    expect(outboxScope('page-1', alice)).not.toBe(outboxScope('page-1', { role: 'agent', account: 'bob' }));
    expect(outboxScope('page-1', alice)).not.toBe(outboxScope('page-1', { role: 'visitor', account: 'alice' }));
  });
});
