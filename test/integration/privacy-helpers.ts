/**
 * Helpers of the privacy tests (export, delete, retention) on SQLite and on PostgreSQL: calls of
 * the admin API, a visitor with one of everything a visitor can leave on the server, and what the
 * database holds that names a visitor, read with direct queries over every text column of every
 * table (so that a table the services forget is found too).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { expect } from 'vitest';
import { memoryStorage, type UploadedFile } from '../../src/index.js';
import { uploadChunked } from '../../src/upload/index.js';
import type { Store } from '../../examples/server/src/store/types.js';
import { deskAgent } from './agent-helpers.js';
import { connectedVisitor, DEMO, pngBytes, recordingWebSocket, waitUntil, type Clients, type Recorded, type ServerEndpoints } from './harness.js';

/** The admin token of the test servers (`ADMIN_TOKEN`). */
export const ADMIN_TOKEN = `admin-${randomBytes(24).toString('base64url')}`;

/** An admin API answer. */
export interface AdminAnswer {
  status: number;
  body: { code: number; message: string; data: unknown };
  headers: Headers;
}

/**
 * Calls the admin API.
 * @param options - `token` (default {@link ADMIN_TOKEN}; null sends none), `address` (sent as
 *   `X-Forwarded-For`: the test servers trust loopback as a proxy, so each test counts apart)
 */
export async function adminCall(
  server: { url: string },
  method: 'GET' | 'DELETE' | 'POST',
  path: string,
  options: { token?: string | null; address?: string; headers?: Record<string, string> } = {},
): Promise<AdminAnswer> {
  const token = options.token === undefined ? ADMIN_TOKEN : options.token;
  const headers: Record<string, string> = { ...options.headers };
  if (token !== null) headers['authorization'] = `Bearer ${token}`;
  if (options.address) headers['x-forwarded-for'] = options.address;
  const res = await fetch(`${server.url}/admin/api/${path}`, { method, headers });
  return { status: res.status, body: (await res.json()) as AdminAnswer['body'], headers: res.headers };
}

/** A fresh client address for one test's admin calls. */
export function testAddress(): string {
  const b = randomBytes(3);
  return `10.${b[0]}.${b[1]}.${b[2]}`;
}

/** What {@link visitorWithEverything} left on the server. */
export interface VisitorTrail {
  /** The visitor (its socket still open). */
  visitor: Recorded;
  /** Its id. */
  clientId: string;
  /** The close codes of its sockets. */
  closeCodes: number[];
  /** Its texts, the question it asked, the agent's reply. */
  texts: { own: string; question: string; agentReply: string };
  /** Files uploaded (all on disk): the image it sent, the file it sent (chunked), the one never sent, the complaint's image. */
  files: { sentImage: UploadedFile; sentFile: UploadedFile; neverSent: UploadedFile; complaintImage: UploadedFile };
  /** The unfinished chunked upload (a part on disk). */
  unfinishedUploadId: string;
  /** The complaint and left message fps. */
  complaintFp: string;
  leftMessageFp: string;
}

/**
 * A visitor of the demo merchant with one of everything: texts to the robot and a question (FAQ),
 * served by an agent who replies, an image and a chunked file sent, a file uploaded and never
 * sent, an unfinished chunked upload, a complaint with an image, a left message and a rating.
 */
export async function visitorWithEverything(clients: Clients, server: ServerEndpoints): Promise<VisitorTrail> {
  const clientId = `pv-${randomUUID()}`;
  const traffic = recordingWebSocket();
  const { desk, rec: agent } = await deskAgent(clients, server, memoryStorage());
  const visitor = await connectedVisitor(clients, server, { clientId, WebSocket: traffic.WebSocket });
  const v = visitor.client;
  const own = `my order ${randomUUID()} is late`;
  const mine = v.sendText(own);
  await waitUntil(() => expect(v.messages.get(mine.fp!)?.sendState).toBe('sent'));
  v.transferToHuman();
  await waitUntil(() => expect(desk.queue.getState().queue.some((q) => q.clientId === clientId)).toBe(true), 10_000);
  desk.accept(clientId);
  await waitUntil(() => expect(v.session.getState().status).toBe('agent'), 10_000);
  const question = await v.api.question({ clientId, mchId: DEMO.mchId, platformId: DEMO.platformId, questionId: 'en-q11' });
  const agentReply = `agent reply ${randomUUID()}`;
  agent.client.sendText(agentReply, { to: clientId });
  await waitUntil(() => expect(v.messages.getSnapshot().some((m) => m.dataContent === agentReply)).toBe(true));

  const sentImage = await v.api.uploadFile(new File([pngBytes([9, 9, 9])], 'sent.png', { type: 'image/png' }));
  const image = v.sendFile(sentImage, 'image');
  const sentFile = await uploadChunked(v.api, new File([randomBytes(3000)], 'notes.pdf', { type: 'application/pdf' }), { chunkSize: 1024 });
  const file = v.sendFile(sentFile, 'file');
  await waitUntil(() => {
    expect(v.messages.get(image.fp!)?.sendState).toBe('sent');
    expect(v.messages.get(file.fp!)?.sendState).toBe('sent');
  });
  const neverSent = await v.api.uploadFile(new File([pngBytes([1, 2, 3])], 'draft.png', { type: 'image/png' }));
  const unfinished = await v.api.chunkInit({ fileName: 'half.zip', fileSize: 2048, mime: 'application/zip', chunkSize: 1024 });
  await v.api.chunkUpload({ uploadId: unfinished.uploadId, index: 0, chunk: new Blob([randomBytes(1024)]) });

  const complaintImage = await v.api.uploadFile(new File([pngBytes([200, 0, 0])], 'proof.png', { type: 'image/png' }));
  const complaintFp = randomUUID();
  await v.api.createMsg({
    type: 400, from: clientId, fp: complaintFp, mchId: DEMO.mchId, platformId: DEMO.platformId,
    dataContent: JSON.stringify({ account: 'member-1', description: 'charged twice', occurredAt: Date.now() - 60_000, images: [complaintImage.url] }),
  });
  const leftMessageFp = randomUUID();
  await v.api.createMsg({
    type: 401, from: clientId, fp: leftMessageFp, mchId: DEMO.mchId, platformId: DEMO.platformId,
    dataContent: JSON.stringify({ contact: 'me@example.com', content: 'call me back' }),
  });
  await v.rate(5, 'quick and kind');
  return {
    visitor,
    clientId,
    closeCodes: traffic.closeCodes,
    texts: { own, question: question.question, agentReply },
    files: { sentImage, sentFile, neverSent, complaintImage },
    unfinishedUploadId: unfinished.uploadId,
    complaintFp,
    leftMessageFp,
  };
}

/** The stored name of a file URL (`.../files/<name>`). */
export function storedName(url: string): string {
  return url.slice(url.lastIndexOf('/files/') + '/files/'.length);
}

/**
 * Checks that an export holds everything {@link visitorWithEverything} left: the visitor, its
 * messages (texts, the question, the agent's reply, the image and file), the uploads list, the
 * rating, the complaint and the left message.
 */
export function expectExportHoldsEverything(data: unknown, trail: VisitorTrail): void {
  const e = data as {
    format: string; clientId: string; visitor: { clientId: string; claimed: boolean } | null;
    messages: { type: number; from: string; dataContent: string }[]; uploads: { name: string; url: string }[];
    chunkedUploads: { uploadId: string; fileUrl: string | null }[]; ratings: { score: number; remark: string | null }[];
    complaints: { fp: string; images: string[] }[]; leftMessages: { fp: string; content: string }[]; sessions: { agentId: string | null }[];
  };
  expect(e.format).toBe('kefu-visitor-export/1');
  expect(e.clientId).toBe(trail.clientId);
  expect(e.visitor).toMatchObject({ clientId: trail.clientId, claimed: true });
  const contents = e.messages.map((m) => m.dataContent);
  expect(contents).toContain(trail.texts.own);
  expect(contents).toContain(trail.texts.question);
  expect(contents).toContain(trail.texts.agentReply);
  expect(e.messages.some((m) => m.type === 101 && m.dataContent.includes(storedName(trail.files.sentImage.url)))).toBe(true);
  expect(e.messages.some((m) => m.type === 102 && m.dataContent.includes(storedName(trail.files.sentFile.url)))).toBe(true);
  expect(e.messages.some((m) => m.type === 200 && m.from === 'agent:alice')).toBe(false); // agent texts are type 100 from the agent
  expect(e.messages.some((m) => m.from === 'agent:alice' && m.dataContent === trail.texts.agentReply)).toBe(true);
  const uploaded = e.uploads.map((u) => storedName(u.url)).sort();
  expect(uploaded).toEqual(
    [trail.files.sentImage, trail.files.sentFile, trail.files.neverSent, trail.files.complaintImage].map((f) => storedName(f.url)).sort(),
  );
  expect(e.chunkedUploads.map((u) => u.uploadId)).toContain(trail.unfinishedUploadId);
  expect(e.ratings).toEqual([expect.objectContaining({ score: 5, remark: 'quick and kind' })]);
  expect(e.sessions.some((s) => s.agentId === 'agent:alice')).toBe(true);
  expect(e.complaints).toEqual([expect.objectContaining({ fp: trail.complaintFp, images: [trail.files.complaintImage.url] })]);
  expect(e.leftMessages).toEqual([expect.objectContaining({ fp: trail.leftMessageFp, content: 'call me back' })]);
}

/** Rows naming `id`, by `table.column`, over every text column of every table of a SQLite file. */
export function sqliteRowsNaming(file: string, id: string): Record<string, number> {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const out: Record<string, number> = {};
    const tables = db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all();
    for (const { name } of tables) {
      const columns = db.prepare<[], { name: string; type: string }>(`PRAGMA table_info("${name}")`).all().filter((c) => c.type.toUpperCase() === 'TEXT');
      for (const column of columns) {
        const n = db.prepare<[string], { n: number }>(`SELECT COUNT(*) AS n FROM "${name}" WHERE instr("${column.name}", ?) > 0`).get(id)?.n ?? 0;
        if (n > 0) out[`${name}.${column.name}`] = n;
      }
    }
    return out;
  } finally {
    db.close();
  }
}

/** Rows naming `id`, by `table.column`, over every text column of every table of a PostgreSQL database. */
export async function pgRowsNaming(url: string, id: string): Promise<Record<string, number>> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    const out: Record<string, number> = {};
    const columns = await db.query<{ table_name: string; column_name: string }>(
      "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public' AND data_type = 'text'",
    );
    for (const c of columns.rows) {
      const sql = `SELECT COUNT(*)::int AS n FROM ${pg.escapeIdentifier(c.table_name)} WHERE strpos(${pg.escapeIdentifier(c.column_name)}, $1) > 0`;
      const n = (await db.query<{ n: number }>(sql, [id])).rows[0]?.n ?? 0;
      if (n > 0) out[`${c.table_name}.${c.column_name}`] = n;
    }
    return out;
  } finally {
    await db.end();
  }
}

/** What {@link seedOldConversations} stored. */
export interface OldConversations {
  /** The visitors. */
  clientIds: string[];
  /** The stored files on disk (images sent and uploads never sent). */
  files: string[];
  /** Messages stored. */
  messages: number;
}

/**
 * Stores conversations as they would be after days at `at` (ms): per visitor an ended session,
 * `messages` texts with an image every tenth (its file written on disk), a file uploaded and never
 * sent, a complaint and a left message.
 */
export async function seedOldConversations(store: Store, filesDir: string, count: { visitors: number; messages: number }, at: number): Promise<OldConversations> {
  const out: OldConversations = { clientIds: [], files: [], messages: 0 };
  mkdirSync(filesDir, { recursive: true });
  // the visitors at once (a pool of connections on PostgreSQL), each one's rows in order
  await Promise.all(Array.from({ length: count.visitors }, async () => {
    const clientId = `old-${randomUUID()}`;
    out.clientIds.push(clientId);
    await store.chat.saveVisitor({ clientId, name: 'Old', avatar: '', language: 'en', blacklisted: false, banned: false, createdAt: at, lastSeen: at });
    const sessionId = randomUUID();
    await store.chat.createSession({
      sessionId, clientId, mchId: DEMO.mchId, platformId: DEMO.platformId, state: 'ended', agentId: null,
      createdAt: at, queuedAt: null, acceptedAt: null, endedAt: at + 1, score: 3, remark: null,
    });
    for (let i = 0; i < count.messages; i++) {
      const image = i % 10 === 9 ? `${randomUUID()}.png` : undefined;
      if (image) {
        writeFileSync(join(filesDir, image), pngBytes([i % 255, 0, 0]));
        out.files.push(image);
      }
      await store.chat.insertMessage({
        fp: randomUUID(), type: image ? 101 : 100, from: clientId, to: 'robot', fn: 'Old', tn: 'Robot', fa: '', ta: '',
        mchId: DEMO.mchId, platformId: DEMO.platformId, clientId, groupId: null, sessionId,
        dataContent: image ? `http://127.0.0.1/files/${image}` : `old text ${i}`, isRead: 1, robot: 0, isGroup: 0, createTime: at + i, cm: null,
      });
      out.messages += 1;
    }
    const draft = `${randomUUID()}.png`;
    writeFileSync(join(filesDir, draft), pngBytes([0, 0, 1]));
    out.files.push(draft);
    await store.privacy.addUploadedFile({ storedName: draft, owner: clientId, name: 'draft.png', size: 10, mime: 'image/png', createdAt: at });
    await store.records.addComplaint({
      fp: randomUUID(), clientId, mchId: DEMO.mchId, platformId: DEMO.platformId, account: 'a', description: 'old', occurredAt: at, images: [], video: null, createdAt: at,
    });
    await store.records.addLeaveMessage({ fp: randomUUID(), clientId, mchId: DEMO.mchId, platformId: DEMO.platformId, contact: 'c', content: 'old', name: 'n', createdAt: at });
  }));
  return out;
}
