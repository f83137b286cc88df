/**
 * The privacy services alone (a real SQLite store and a files folder, an injected clock and
 * socket closer): a deletion closes the visitor's sockets before and after it, refuses the id for
 * 30 days (then forgets it), keeps files a kept message names; retention is off at 0 days, runs a
 * period once and the next one again, and refuses a bad setting.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Code } from '../../src/http/envelope.js';
import { FileStore } from '../../src/http/files.js';
import { Identity } from '../../src/services/identity.js';
import { DELETED_ID_REFUSED_MS, Privacy } from '../../src/services/privacy.js';
import { DAY_MS, Retention } from '../../src/services/retention.js';
import type { MessageRecord } from '../../src/store/types.js';
import { removeDir, tempDir } from '../helpers/start.js';
import { F, refusalOf, serviceFixture, type ServiceFixture } from './fixture.js';

let fx: ServiceFixture;
let dir: string;
let files: FileStore;
let now: number;
beforeEach(async () => {
  fx = await serviceFixture();
  dir = tempDir();
  files = new FileStore(join(dir, 'files'), join(dir, 'parts'));
  await files.init();
  now = Date.UTC(2026, 0, 1);
});
afterEach(async () => {
  await fx.close();
  removeDir(dir);
});

/** A message of `clientId` at `at`; an image naming `file` when given. */
function message(clientId: string, at: number, file?: string): MessageRecord {
  return {
    fp: randomUUID(), type: file ? 101 : 100, from: clientId, to: 'robot', fn: '', tn: '', fa: '', ta: '', mchId: F.mchId, platformId: F.platformId,
    clientId, groupId: null, sessionId: null, dataContent: file ? `/files/${file}` : 'hi', isRead: 0, robot: 0, isGroup: 0, createTime: at, cm: null,
  };
}

function fileOnDisk(): string {
  const name = `${randomUUID()}.png`;
  mkdirSync(files.filesDir, { recursive: true });
  writeFileSync(join(files.filesDir, name), 'bytes');
  return name;
}

describe('Privacy.delete', () => {
  it('closes the sockets before and after, deletes rows and unnamed files, keeps a file another kept message names', async () => {
    const closes: string[] = [];
    const privacy = new Privacy({ store: fx.store, files, disconnect: (id, code, reason) => (closes.push(`${id} ${code} ${reason}`), 1), settleMs: 0, now: () => now });
    const own = fileOnDisk();
    const shared = fileOnDisk();
    await fx.store.chat.insertMessage(message(F.plain, now, own));
    await fx.store.chat.insertMessage(message(F.plain, now, shared));
    await fx.store.chat.insertMessage(message(F.blacklisted, now, shared)); // another visitor sent the same URL
    const done = await privacy.delete(F.plain);
    expect(closes).toEqual([`${F.plain} 4004 deleted`, `${F.plain} 4004 deleted`]);
    expect(done).toMatchObject({ clientId: F.plain, found: true, rows: { messages: 2, visitors: 1 }, files: { deleted: 1, kept: 1 }, socketsClosed: 2 });
    expect(existsSync(join(files.filesDir, own))).toBe(false);
    expect(existsSync(join(files.filesDir, shared))).toBe(true);
    expect(await fx.store.chat.visitor(F.blacklisted)).toBeDefined();
  });

  it('refuses the id for 30 days (a connect is a mismatch, 4004), then forgets it', async () => {
    const privacy = new Privacy({ store: fx.store, files, disconnect: () => 0, settleMs: 0, now: () => now });
    const identity = new Identity(fx.store, 60_000, () => now);
    await privacy.delete(F.plain);
    expect(await identity.checkClaim(F.plain, undefined)).toBe('mismatch');
    expect(await identity.checkClaim('someone-new', undefined)).toBe('unclaimed');
    now += DELETED_ID_REFUSED_MS - 1;
    expect(await privacy.forgetOldDeletions()).toBe(0);
    now += 2;
    expect(await privacy.forgetOldDeletions()).toBe(1);
    expect(await identity.checkClaim(F.plain, undefined)).toBe('unclaimed');
  });

  it('refuses ids no visitor has, and says when nothing names one', async () => {
    const privacy = new Privacy({ store: fx.store, files, disconnect: () => 0, settleMs: 0 });
    for (const bad of ['', 'agent:alice', 'a/b', 'x'.repeat(129), 'new\nline']) expect((await refusalOf(privacy.delete(bad))).code).toBe(Code.BadRequest);
    expect(await refusalOf(privacy.export('nobody'))).toEqual({ code: Code.NotFound, message: 'Nothing is stored about visitor "nobody"' });
  });
});

describe('Retention', () => {
  const retention = (envDays: number): Retention => new Retention({ store: fx.store, files, nodeId: 'n1', envDays, intervalMs: 3_600_000, now: () => now, batchSize: 2 });

  it('is off at 0 days; runs a period once, the next period again; the store setting wins and goes back to the environment', async () => {
    const r = retention(0);
    const old = fileOnDisk();
    for (let i = 0; i < 5; i++) await fx.store.chat.insertMessage(message(F.plain, now - 40 * DAY_MS + i, i === 0 ? old : undefined));
    await fx.store.chat.insertMessage(message(F.plain, now - DAY_MS));
    expect(await r.runOnce()).toMatchObject({ ran: false, reason: 'off' });
    expect(await r.set(30)).toEqual({ days: 30, source: 'store' });
    const first = await r.runOnce();
    expect(first).toMatchObject({ ran: true, period: r.periodOf(now), cutoff: now - 30 * DAY_MS, deleted: { messages: 5, files: 1 } });
    expect(existsSync(join(files.filesDir, old))).toBe(false);
    expect(await r.runOnce(now + 1000)).toMatchObject({ ran: false, reason: 'claimed' });
    now += 3_600_000;
    expect(await r.runOnce()).toMatchObject({ ran: true, deleted: {} });
    expect((await r.runs()).map((run) => run.node)).toEqual(['n1', 'n1']);
    expect(await r.set('default')).toEqual({ days: 0, source: 'env' });
    expect(await retention(7).setting()).toEqual({ days: 7, source: 'env' });
    for (const bad of [-1, 1.5, 36_501, Number.NaN]) expect((await refusalOf(r.set(bad))).code).toBe(Code.BadRequest);
  });

  it('stopped: a running purge ends early and records what it deleted; no check starts after', async () => {
    const r = retention(30);
    for (let i = 0; i < 40; i++) await fx.store.chat.insertMessage(message(F.plain, now - 40 * DAY_MS + i));
    const stop = r.start(() => undefined);
    const running = r.runOnce();
    await stop();
    const outcome = await running;
    expect(outcome.ran).toBe(true);
    if (!outcome.ran) return;
    expect(outcome.deleted['messages'] ?? 0).toBeLessThan(40); // batches of 2: it stopped long before the end
    const runs = await fx.store.privacy.retentionRuns(5);
    expect(runs).toEqual([expect.objectContaining({ node: 'n1', finishedAt: expect.any(Number), deleted: outcome.deleted })]);
    await new Promise((resolve) => setTimeout(resolve, 1_200)); // past the first check's time
    expect(await fx.store.privacy.retentionRuns(5)).toHaveLength(1);
  });
});
