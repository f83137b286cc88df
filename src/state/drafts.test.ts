import { describe, expect, it, vi } from 'vitest';
import { Drafts, DRAFTS_KEY_PREFIX, MAX_DRAFT_LENGTH, MAX_DRAFTS } from './drafts.js';
import { memoryStorage } from './storage.js';

describe('composer drafts survive a reload (kept in the client storage, per visitor)', () => {
  it('a draft set by one page is read by the next page over the same storage', () => {
    const storage = memoryStorage();
    new Drafts(storage, () => 'v1|7|9|').set('service', 'half a sentence');
    const next = new Drafts(storage, () => 'v1|7|9|');
    expect(next.get('service')).toBe('half a sentence');
    expect(next.get('group-1')).toBe('');
  });

  it('another visitor on the same browser does not see it', () => {
    const storage = memoryStorage();
    new Drafts(storage, () => 'v1|7|9|').set('service', 'mine');
    expect(new Drafts(storage, () => 'v2|7|9|').get('service')).toBe('');
  });

  it('a blank draft is removed (sending clears it), and the storage key with the last one', () => {
    const storage = memoryStorage();
    const drafts = new Drafts(storage, () => 's');
    drafts.set('service', 'x');
    drafts.set('service', '   ');
    expect(drafts.get('service')).toBe('');
    expect(storage.getItem(DRAFTS_KEY_PREFIX + 's')).toBeNull();
  });

  it('notifies subscribers once per change, with a new snapshot only when something changed', () => {
    const drafts = new Drafts(memoryStorage(), () => 's');
    const listener = vi.fn();
    const off = drafts.subscribe(listener);
    const before = drafts.getSnapshot();
    drafts.set('a', 'one');
    drafts.set('a', 'one');
    expect(listener).toHaveBeenCalledTimes(1);
    expect(drafts.getSnapshot()).not.toBe(before);
    expect(drafts.getSnapshot()).toBe(drafts.getSnapshot());
    off();
    drafts.set('a', 'two');
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('limits the size: long drafts are cut, the oldest conversations dropped', () => {
    const drafts = new Drafts(memoryStorage(), () => 's');
    drafts.set('long', 'x'.repeat(MAX_DRAFT_LENGTH + 10));
    expect(drafts.get('long')).toHaveLength(MAX_DRAFT_LENGTH);
    for (let i = 0; i < MAX_DRAFTS; i++) drafts.set(`k${i}`, 'y');
    expect(drafts.get('long')).toBe('');
    expect(Object.keys(drafts.getSnapshot())).toHaveLength(MAX_DRAFTS);
  });

  it('never throws on a full storage or a corrupt entry', () => {
    const full = { getItem: () => '{not json', setItem: () => { throw new Error('QuotaExceededError'); }, removeItem: () => undefined };
    const drafts = new Drafts(full, () => 's');
    expect(drafts.get('service')).toBe('');
    expect(() => drafts.set('service', 'kept in memory')).not.toThrow();
    expect(drafts.get('service')).toBe('kept in memory');
  });
});
