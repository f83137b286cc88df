/**
 * `SQLITE_SYNCHRONOUS`: full by default (each commit fsynced, as before the option), normal on
 * request, anything else a clear configuration error; the store sets the pragma it is given.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { SqliteStore } from '../src/store/sqlite-store.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The `synchronous` pragma of a fresh store on a file: 2 is FULL, 1 NORMAL. */
async function pragmaOf(options?: { synchronous?: 'full' | 'normal' }): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'kefu-sync-'));
  dirs.push(dir);
  const store = new SqliteStore(join(dir, 'kefu.db'), options);
  // the pragma is per connection: read it through the store's own handle
  const value = (store as unknown as { db: Database.Database }).db.pragma('synchronous', { simple: true });
  await store.close();
  return Number(value);
}

describe('SQLITE_SYNCHRONOUS', () => {
  it('is full unless set; normal when asked; refused otherwise', () => {
    expect(loadConfig({}).sqliteSynchronous).toBe('full');
    expect(loadConfig({ SQLITE_SYNCHRONOUS: 'FULL' }).sqliteSynchronous).toBe('full');
    expect(loadConfig({ SQLITE_SYNCHRONOUS: ' normal ' }).sqliteSynchronous).toBe('normal');
    expect(() => loadConfig({ SQLITE_SYNCHRONOUS: 'off' })).toThrow(ConfigError);
    expect(() => loadConfig({ SQLITE_SYNCHRONOUS: 'off' })).toThrow(/SQLITE_SYNCHRONOUS must be full or normal/);
  });

  it('the store syncs every commit (FULL) by default and at checkpoints (NORMAL) when asked', async () => {
    expect(await pragmaOf()).toBe(2);
    expect(await pragmaOf({ synchronous: 'full' })).toBe(2);
    expect(await pragmaOf({ synchronous: 'normal' })).toBe(1);
  });
});
