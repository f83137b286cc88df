/**
 * Visitor privacy on one node with SQLite (issue 22), SDK clients against the real server:
 *
 * - the admin API's export holds everything a visitor left (messages, uploads, rating, complaint,
 *   left message); its delete leaves nothing: every text column of every table is searched for the
 *   id, the files are gone from disk, the visitor's live socket is closed with 4004 and its client
 *   starts as a new visitor; another visitor keeps everything;
 * - the admin API refuses missing and wrong tokens and a visitor's own credentials, limits calls
 *   per address, answers bad input clearly, is off without `ADMIN_TOKEN` and keeps only a hash;
 * - retention deletes old conversations, their files and old uploads once per period (and the
 *   time it takes is printed).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../examples/server/test/helpers/start.js';
import { clientsPerTest, connectedVisitor, pngBytes, sharedServer, waitUntil, type TestServer } from './harness.js';
import {
  ADMIN_TOKEN,
  adminCall,
  expectExportHoldsEverything,
  seedOldConversations,
  sqliteRowsNaming,
  storedName,
  testAddress,
  visitorWithEverything,
} from './privacy-helpers.js';

let server: TestServer;
sharedServer((s) => (server = s), {
  config: { memoryDb: false },
  env: { ADMIN_TOKEN, TRUST_PROXY: '127.0.0.1', ADMIN_RATE_MAX: '6', RATE_SOCKET_MAX: '100' },
});
const clients = clientsPerTest();
const DAY = 86_400_000;

describe('export and delete of one visitor (SQLite)', () => {
  it('the export holds everything; the delete leaves no row and no file, closes the live socket (4004), and spares another visitor', async () => {
    const trail = await visitorWithEverything(clients, server);
    const other = await connectedVisitor(clients, server);
    const otherFile = await other.client.api.uploadFile(new File([pngBytes([4, 5, 6])], 'mine.png', { type: 'image/png' }));
    const dbFile = join(server.dataDir, 'kefu.db');
    const filesDir = join(server.dataDir, 'files');
    const address = testAddress();

    const exported = await adminCall(server, 'GET', `visitors/${trail.clientId}`, { address });
    expect(exported.status).toBe(200);
    expect(exported.headers.get('cache-control')).toBe('no-store');
    expect(exported.body.code).toBe(0);
    expectExportHoldsEverything(exported.body.data, trail);
    expect(JSON.stringify(exported.body.data)).not.toContain(other.client.clientId);

    const before = sqliteRowsNaming(dbFile, trail.clientId);
    for (const where of ['visitors.client_id', 'key_sessions.bound_to', 'sessions.client_id', 'messages.client_id', 'complaints.client_id', 'leave_messages.client_id', 'uploads.client_key', 'uploaded_files.owner', 'upload_usage.identity', 'conversation_seq.conv']) {
      expect(before[where], where).toBeGreaterThan(0);
    }
    const names = Object.values(trail.files).map((f) => storedName(f.url));
    for (const name of names) expect(existsSync(join(filesDir, name)), name).toBe(true);
    expect(existsSync(join(server.dataDir, 'parts', trail.unfinishedUploadId))).toBe(true);

    const deleted = await adminCall(server, 'DELETE', `visitors/${trail.clientId}`, { address });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toMatchObject({ clientId: trail.clientId, found: true, files: { deleted: 4, kept: 0 } });
    expect((deleted.body.data as { socketsClosed: number }).socketsClosed).toBeGreaterThanOrEqual(1);
    await waitUntil(() => expect(trail.closeCodes).toContain(4004));
    expect(sqliteRowsNaming(dbFile, trail.clientId)).toEqual({});
    for (const name of names) expect(existsSync(join(filesDir, name)), name).toBe(false);
    expect(existsSync(join(server.dataDir, 'parts', trail.unfinishedUploadId))).toBe(false);
    // the client forgot the deleted id and came back as a new visitor; the old id stays gone
    await waitUntil(() => expect(trail.visitor.client.clientId).not.toBe(trail.clientId), 10_000);
    await waitUntil(() => expect(trail.visitor.client.connectionState).toBe('open'), 10_000);
    expect(sqliteRowsNaming(dbFile, trail.clientId)).toEqual({});
    expect((await adminCall(server, 'GET', `visitors/${trail.clientId}`, { address })).status).toBe(404);
    // the other visitor keeps its rows and its file
    expect(sqliteRowsNaming(dbFile, other.client.clientId)['visitors.client_id']).toBe(1);
    expect(existsSync(join(filesDir, storedName(otherFile.url)))).toBe(true);
  });
});

describe('the admin API: who may call it, how often, with what', () => {
  it('refuses a missing, wrong or non-bearer token with 401 (code 4003), and a visitor\'s own credentials', async () => {
    const address = testAddress();
    const saltKeys = new Set<string>();
    const recordingFetch: typeof fetch = (input, init) => {
      const salt = new Headers(init?.headers).get('x-salt-key');
      if (salt) saltKeys.add(salt);
      return fetch(input, init);
    };
    const visitor = await connectedVisitor(clients, server, { fetch: recordingFetch });
    await visitor.client.loadOlder(); // a call made with the salt key
    const path = `visitors/${visitor.client.clientId}`;
    const [saltKey = ''] = saltKeys;
    expect(saltKey).not.toBe('');
    const refusals = [
      await adminCall(server, 'GET', path, { token: null, address }),
      await adminCall(server, 'DELETE', path, { token: `${ADMIN_TOKEN}x`, address }),
      await adminCall(server, 'GET', path, { token: null, address, headers: { authorization: `Basic ${Buffer.from(`admin:${ADMIN_TOKEN}`).toString('base64')}` } }),
      // the visitor's key session and its secret are worth nothing here
      await adminCall(server, 'DELETE', path, { token: saltKey, address, headers: { 'x-salt-key': saltKey } }),
    ];
    for (const answer of refusals) {
      expect(answer.status).toBe(401);
      expect(answer.body).toMatchObject({ code: 4003, data: null });
      expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
    expect(refusals[0]?.body.message).toMatch(/Authorization: Bearer/);
    expect(refusals[1]?.body.message).toMatch(/wrong/);
    // a token in the query string is no token
    const query = await fetch(`${server.url}/admin/api/${path}?token=${ADMIN_TOKEN}`, { headers: { 'x-forwarded-for': testAddress() } });
    expect(query.status).toBe(401);
    // nothing was deleted: the visitor is still connected and stored
    expect(visitor.client.connectionState).toBe('open');
    expect(sqliteRowsNaming(join(server.dataDir, 'kefu.db'), visitor.client.clientId)['visitors.client_id']).toBe(1);
  });

  it('limits calls per address (ADMIN_RATE_MAX, then 413), wrong tokens included; another address is not held back', async () => {
    const address = testAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await adminCall(server, 'GET', 'retention', { address, token: i % 2 === 0 ? ADMIN_TOKEN : 'wrong-token' })).status);
    expect(statuses.slice(0, 6)).toEqual([200, 401, 200, 401, 200, 401]);
    expect(statuses.slice(6)).toEqual([413, 413]);
    expect((await adminCall(server, 'GET', 'retention', { address: testAddress() })).status).toBe(200);
  });

  it('answers bad input clearly: a bad id 400 (code 1001), an unknown visitor 404 or found: false, an unknown path 404 after the token', async () => {
    const address = testAddress();
    const bad = await adminCall(server, 'GET', `visitors/${encodeURIComponent('agent:alice')}`, { address });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 1001, message: expect.stringMatching(/clientId/) });
    expect((await adminCall(server, 'DELETE', `visitors/${encodeURIComponent('a b<script>')}`, { address })).status).toBe(400);
    expect((await adminCall(server, 'GET', `visitors/${'x'.repeat(129)}`, { address })).status).toBe(400);
    const unknown = await adminCall(server, 'GET', 'visitors/nobody-at-all', { address });
    expect(unknown).toMatchObject({ status: 404, body: { code: 1003 } });
    const gone = await adminCall(server, 'DELETE', 'visitors/nobody-at-all', { address: testAddress() });
    expect(gone.body.data).toMatchObject({ found: false, rows: {}, files: { deleted: 0, kept: 0 } });
    expect((await adminCall(server, 'GET', 'nothing-here', { address: testAddress(), token: null })).status).toBe(401);
    expect((await adminCall(server, 'GET', 'nothing-here', { address: testAddress() })).status).toBe(404);
  });

  it('keeps only the token\'s hash, never shows it to visitors, and is off (saying so) without ADMIN_TOKEN', async () => {
    expect(JSON.stringify(server.config)).not.toContain(ADMIN_TOKEN);
    expect(server.config.privacy.adminTokenHash).toMatch(/^[0-9a-f]{64}$/);
    const publicConfig = await (await fetch(`${server.url}/im/api/public/config`)).text();
    expect(publicConfig).not.toContain(server.config.privacy.adminTokenHash);
    expect(publicConfig).not.toMatch(/admin/i);
    const plain = await startServer();
    try {
      const off = await adminCall(plain, 'GET', 'retention');
      expect(off.status).toBe(404);
      expect(off.body.message).toMatch(/admin API is off: set ADMIN_TOKEN/);
    } finally {
      await plain.close();
    }
  });
});

describe('retention (SQLite, one node)', () => {
  it('deletes conversations and files older than the setting once per period; newer ones stay', async () => {
    const now = Date.now();
    const old = await seedOldConversations(server.store, join(server.dataDir, 'files'), { visitors: 20, messages: 100 }, now - 40 * DAY);
    const recent = await connectedVisitor(clients, server);
    const kept = recent.client.sendText('recent text');
    await waitUntil(() => expect(recent.client.messages.get(kept.fp!)?.sendState).toBe('sent'));
    expect(await server.retention.set(30)).toEqual({ days: 30, source: 'store' });
    try {
      // two periods ahead: no automatic check (at the start, then hourly) can have claimed it
      const period = Date.now() + 2 * 3_600_000;
      const first = await server.retention.runOnce(period);
      expect(first.ran).toBe(true);
      if (!first.ran) return;
      console.log(`[retention] SQLite: ${old.messages} messages of ${old.clientIds.length} visitors and ${old.files.length} files deleted in ${first.ms.toFixed(0)} ms (${JSON.stringify(first.deleted)})`);
      expect(first.deleted).toMatchObject({ messages: old.messages, complaints: 20, leave_messages: 20, uploaded_files: 20, files: old.files.length });
      expect(first.deleted['sessions']).toBeGreaterThanOrEqual(20);
      expect(await server.retention.runOnce(period + 1)).toMatchObject({ ran: false, reason: 'claimed' });
      for (const file of old.files) expect(existsSync(join(server.dataDir, 'files', file)), file).toBe(false);
      // conversations go, identities stay (the visitor row and its conversation counter)
      for (const id of old.clientIds.slice(0, 3)) {
        expect(Object.keys(sqliteRowsNaming(join(server.dataDir, 'kefu.db'), id)).sort()).toEqual(['conversation_seq.conv', 'visitors.client_id']);
      }
      expect(recent.client.messages.get(kept.fp!)).toBeDefined();
      expect(sqliteRowsNaming(join(server.dataDir, 'kefu.db'), recent.client.clientId)['messages.client_id']).toBeGreaterThan(0);
      const status = await adminCall(server, 'GET', 'retention', { address: testAddress() });
      expect(status.body.data).toMatchObject({ days: 30, source: 'store', runs: [expect.objectContaining({ period: Math.floor(period / 3_600_000), finishedAt: expect.any(Number) })] });
    } finally {
      await server.retention.set('default');
    }
  });
});
