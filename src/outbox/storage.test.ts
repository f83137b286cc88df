import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { indexedDbOutboxStorage, memoryOutboxStorage, resolveOutboxStorage, type OutboxRecord, type OutboxStorage } from './storage.js';

let dbCount = 0;
const freshDb = (): OutboxStorage => indexedDbOutboxStorage(`outbox-test-${++dbCount}`);

const record = (fp: string, seq: number, text = fp): OutboxRecord => ({ fp, seq, message: { type: 100, fp, dataContent: text } });

describe.each([
  ['IndexedDB (idb over fake-indexeddb)', freshDb],
  ['memory', memoryOutboxStorage],
])('outbox storage: %s', (_name, make) => {
  it('keeps records by fp: a put replaces, a remove deletes, an absent remove is no error', async () => {
    const storage = make();
    await storage.put('a', record('m1', 1, 'first'));
    await storage.put('a', record('m2', 2));
    await storage.put('a', record('m1', 1, 'edited'));
    await storage.remove('a', 'm2');
    await storage.remove('a', 'never');
    expect(await storage.load('a')).toEqual([record('m1', 1, 'edited')]);
  });

  it('partitions records by scope: another visitor sees none of them', async () => {
    const storage = make();
    await storage.put('visitor-1|7|9|', record('m1', 1));
    await storage.put('visitor-2|7|9|', record('m2', 2));
    expect((await storage.load('visitor-1|7|9|')).map((r) => r.fp)).toEqual(['m1']);
    expect((await storage.load('visitor-2|7|9|')).map((r) => r.fp)).toEqual(['m2']);
    await storage.remove('visitor-2|7|9|', 'm1'); // the wrong scope removes nothing
    expect(await storage.load('visitor-1|7|9|')).toHaveLength(1);
  });

  it('keeps a picked file as a Blob with its bytes', async () => {
    const storage = make();
    const blob = new Blob([new Uint8Array([1, 2, 3, 250])], { type: 'image/png' });
    await storage.put('a', { ...record('f1', 1), file: { blob, name: 'cat.png', kind: 'image', size: 4, mime: 'image/png' } });
    const [back] = await storage.load('a');
    expect(back?.file?.name).toBe('cat.png');
    expect(back?.file?.kind).toBe('image');
    expect([...new Uint8Array(await back!.file!.blob!.arrayBuffer())]).toEqual([1, 2, 3, 250]);
  });
});

describe('the IndexedDB storage survives its client: a second instance over the same database reads it', () => {
  it('reads what an earlier instance wrote', async () => {
    const name = `outbox-shared-${++dbCount}`;
    await indexedDbOutboxStorage(name).put('s', record('m1', 5));
    expect((await indexedDbOutboxStorage(name).load('s')).map((r) => r.fp)).toEqual(['m1']);
  });
});

describe('resolveOutboxStorage: injected, else IndexedDB when present, else memory', () => {
  it('returns the injected storage as is', () => {
    const injected = memoryOutboxStorage();
    expect(resolveOutboxStorage(injected)).toBe(injected);
  });

  it('falls back to memory without IndexedDB (Node, SSR)', async () => {
    const saved = globalThis.indexedDB;
    try {
      // @ts-expect-error: removing the global for this test
      delete globalThis.indexedDB;
      const storage = resolveOutboxStorage();
      await storage.put('s', record('m1', 1));
      expect(await storage.load('s')).toHaveLength(1);
      expect(await resolveOutboxStorage().load('s')).toEqual([]); // memory: per client
    } finally {
      globalThis.indexedDB = saved;
    }
  });
});
