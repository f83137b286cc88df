/**
 * Privacy benchmark: retention and a visitor's deletion on a store of realistic size.
 *
 * Seeds `--messages` messages (default 100 000) in conversations of 100 messages each, one in ten
 * an image whose file is on disk, half of the conversations older than the retention, each with
 * a rated session, a complaint, a left message and an upload never sent; then times, in order:
 * 1. `Retention.purge` of the older half (rows in batches, then the files nothing kept names), and
 *    the longest the event loop was held meanwhile (SQLite answers synchronously, batch by batch);
 * 2. `Privacy.delete` of one kept visitor (rows, files, with the big tables around it);
 * 3. `Privacy.export` of another.
 *
 * SQLite (a file in a temporary directory) always; PostgreSQL too with `--pg <admin url>` (a
 * database of its own, dropped at the end).
 *
 * `npx tsx bench/retention.ts [--messages 100000] [--pg postgres://postgres@127.0.0.1:5432/postgres]`
 * @module
 */

import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { join } from 'node:path';
import pg from 'pg';
import { FileStore } from '../examples/server/src/http/files.js';
import { Privacy } from '../examples/server/src/services/privacy.js';
import { DAY_MS, Retention } from '../examples/server/src/services/retention.js';
import { PgStore } from '../examples/server/src/store/pg-store.js';
import { SqliteStore } from '../examples/server/src/store/sqlite-store.js';
import type { Store } from '../examples/server/src/store/types.js';

const PER_CONVERSATION = 100;
const RETENTION_DAYS = 30;

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
}

const messages = Number(option('--messages') ?? 100_000);
if (!Number.isInteger(messages) || messages < PER_CONVERSATION || messages > 5_000_000) throw new Error('--messages is an integer from 100 to 5 000 000');
const conversations = Math.floor(messages / PER_CONVERSATION);

/** The rows one conversation is made of, as parameter lists (`c` its number, `at` its time). */
function conversationRows(c: number, at: number): { messages: unknown[][]; image: string[]; draft: string } {
  const id = `bench-${c}`;
  const rows: unknown[][] = [];
  const images: string[] = [];
  for (let i = 0; i < PER_CONVERSATION; i++) {
    const image = i % 10 === 9 ? `b${c}-${i}.png` : undefined;
    if (image) images.push(image);
    rows.push([`fp-${c}-${i}`, image ? 101 : 100, i % 2 === 0 ? id : 'robot', i % 2 === 0 ? 'robot' : id, 'M1001', 'P01', id, `s-${c}`, image ? `http://h/files/${image}` : `text ${i} of ${c}`, at + i * 1000, i + 1]);
  }
  return { messages: rows, image: images, draft: `d${c}.png` };
}

async function seed(store: Store, raw: (sql: string, params: unknown[][]) => Promise<void>, filesDir: string, now: number): Promise<void> {
  mkdirSync(filesDir, { recursive: true });
  const batch: unknown[][] = [];
  const flush = async (): Promise<void> => {
    await raw(
      `INSERT INTO messages (fp, type, from_id, to_id, fn, tn, fa, ta, mch_id, platform_id, client_id, group_id, session_id, data_content, is_read, robot, is_group, create_time, cm, seq)
       VALUES ($1, $2, $3, $4, '', '', '', '', $5, $6, $7, NULL, $8, $9, 1, 0, 0, $10, NULL, $11)`,
      batch.splice(0),
    );
  };
  for (let c = 0; c < conversations; c++) {
    const at = c % 2 === 0 ? now - 40 * DAY_MS : now - DAY_MS;
    const rows = conversationRows(c, at);
    batch.push(...rows.messages);
    for (const image of [...rows.image, rows.draft]) writeFileSync(join(filesDir, image), randomBytes(64));
    const id = `bench-${c}`;
    await store.chat.saveVisitor({ clientId: id, name: id, avatar: '', language: 'en', blacklisted: false, banned: false, createdAt: at, lastSeen: at });
    await store.chat.createSession({ sessionId: `s-${c}`, clientId: id, mchId: 'M1001', platformId: 'P01', state: 'ended', agentId: null, createdAt: at, queuedAt: null, acceptedAt: null, endedAt: at + 200_000, score: 4, remark: null });
    await store.records.addComplaint({ fp: `c-${c}`, clientId: id, mchId: 'M1001', platformId: 'P01', account: 'a', description: 'd', occurredAt: at, images: [], video: null, createdAt: at });
    await store.records.addLeaveMessage({ fp: `l-${c}`, clientId: id, mchId: 'M1001', platformId: 'P01', contact: 'c', content: 'x', name: 'n', createdAt: at });
    await store.privacy.addUploadedFile({ storedName: rows.draft, owner: id, name: 'draft.png', size: 64, mime: 'image/png', createdAt: at });
    if (batch.length >= 5000) await flush();
  }
  if (batch.length > 0) await flush();
}

async function measure(kind: string, store: Store, raw: (sql: string, params: unknown[][]) => Promise<void>, dir: string): Promise<void> {
  const filesDir = join(dir, 'files');
  const files = new FileStore(filesDir, join(dir, 'parts'));
  const now = Date.now();
  let t = performance.now();
  await seed(store, raw, filesDir, now);
  console.log(`${kind}: seeded ${messages} messages in ${conversations} conversations, ${readdirSync(filesDir).length} files (${(performance.now() - t).toFixed(0)} ms)`);

  const retention = new Retention({ store, files, nodeId: 'bench', envDays: RETENTION_DAYS, intervalMs: 3_600_000 });
  const stalls = monitorEventLoopDelay({ resolution: 10 });
  stalls.enable();
  t = performance.now();
  const deleted = await retention.purge(now - RETENTION_DAYS * DAY_MS);
  const ms = performance.now() - t;
  stalls.disable();
  console.log(`${kind}: retention deleted ${JSON.stringify(deleted)} in ${ms.toFixed(0)} ms (${Math.round(((deleted['messages'] ?? 0) / ms) * 1000)} messages/s); ${readdirSync(filesDir).length} files left; longest event-loop stall ${(stalls.max / 1e6).toFixed(0)} ms`);

  const privacy = new Privacy({ store, files, disconnect: () => 0, settleMs: 0 });
  t = performance.now();
  const exported = await privacy.export('bench-3');
  console.log(`${kind}: export of one visitor (${exported.messages.length} messages) in ${(performance.now() - t).toFixed(0)} ms`);
  t = performance.now();
  const gone = await privacy.delete('bench-1');
  console.log(`${kind}: delete of one visitor (${JSON.stringify(gone.rows)}, files ${JSON.stringify(gone.files)}) in ${(performance.now() - t).toFixed(0)} ms, with ${messages / 2 - PER_CONVERSATION} messages of others around it`);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'kefu-bench-retention-'));
  try {
    const sqlite = new SqliteStore(join(dir, 'sqlite', 'kefu.db'));
    const db = (sqlite as unknown as { db: import('better-sqlite3').Database }).db;
    await measure(
      'SQLite',
      sqlite,
      async (sql, params) => {
        const statement = db.prepare(sql.replace(/\$\d+/g, '?'));
        db.transaction(() => params.forEach((p) => statement.run(...p)))();
      },
      join(dir, 'sqlite'),
    );
    await sqlite.close();

    const adminUrl = option('--pg');
    if (adminUrl === undefined) return;
    const name = `kefu_bench_${process.pid}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    try {
      const url = adminUrl.replace(/\/[^/]*$/, `/${name}`);
      const store = await PgStore.open(url);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await measure(
          'PostgreSQL',
          store,
          async (sql, params) => {
            await client.query('BEGIN');
            for (const p of params) await client.query(sql, p);
            await client.query('COMMIT');
          },
          join(dir, 'pg'),
        );
      } finally {
        await client.end();
        await store.close();
      }
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
