/**
 * Store contract: a visitor's export and deletion, stored files with their owners, retention in
 * batches and the once-per-period claim of a retention run.
 * @module
 */

import { describe, expect, it } from 'vitest';
import type { UploadedFile } from '../../src/store/privacy-types.js';
import type { Store } from '../../src/store/types.js';
import { groupMessage, MCH, message, PLATFORM, session, T0, visitor } from './fixtures.js';

const DAY = 86_400_000;

const file = (storedName: string, owner: string, createdAt = T0): UploadedFile => ({ storedName, owner, name: `${storedName}.orig`, size: 10, mime: 'image/png', createdAt });

/**
 * Stores one of everything for `id` (a claimed visitor with a bound key session, a rated session,
 * texts, an image message, a group message and read, a membership, a complaint with an image, a
 * left message, an uploaded file, a chunked upload, upload usage).
 */
async function everything(store: Store, id: string, at = T0): Promise<void> {
  await store.chat.saveVisitor(visitor(id, { createdAt: at, lastSeen: at }));
  await store.identity.claim(id, `hash-${id}`);
  await store.keys.create({ saltKey: `salt-${id}`, requestKey: `rk-${id}`, aesKey: 'a'.repeat(32), token: 't'.repeat(32), createdAt: at, lastUsed: at });
  await store.identity.bindKeySession(`salt-${id}`, id);
  await store.chat.createSession(session(`s-${id}`, id, { state: 'ended', createdAt: at, endedAt: at + 5, score: 4, remark: 'good' }));
  await store.chat.insertMessage(message(`m1-${id}`, id, at + 1, { sessionId: `s-${id}`, type: 100 }));
  await store.chat.insertMessage(message(`m2-${id}`, id, at + 2, { sessionId: `s-${id}`, type: 101, dataContent: `http://h/files/img-${id}.png` }));
  await store.chat.insertMessage(
    message(`m3-${id}`, id, at + 3, { sessionId: `s-${id}`, type: 102, dataContent: JSON.stringify({ name: 'a.pdf', size: 1, url: `/files/doc-${id}.pdf`, mime: 'application/pdf' }) }),
  );
  await store.directory.putGroup({ groupId: 'g1', mchId: MCH, name: 'G', kind: 'group', avatar: '', notice: '', open: true });
  await store.directory.addMember({ groupId: 'g1', clientId: id, name: id, avatar: '', role: 'member', joinedAt: at });
  await store.chat.insertMessage({ ...groupMessage(`g-${id}`, 'g1', at + 4), from: id });
  await store.chat.addGroupRead(`g-${id}`, id, at + 6);
  await store.chat.addGroupRead(`g-${id}`, 'someone-else', at + 7);
  await store.records.addComplaint({
    fp: `c-${id}`, clientId: id, mchId: MCH, platformId: PLATFORM, account: 'acc', description: 'bad', occurredAt: at, images: [`/files/cimg-${id}.png`], video: null, createdAt: at,
  });
  await store.records.addLeaveMessage({ fp: `l-${id}`, clientId: id, mchId: MCH, platformId: PLATFORM, contact: 'me@x', content: 'call me', name: 'Me', createdAt: at });
  await store.privacy.addUploadedFile(file(`up-${id}.png`, id, at));
  await store.records.putUpload({
    uploadId: `u-${id}`, clientKey: id, fileName: 'big.zip', fileSize: 2048, mime: 'application/zip', chunkSize: 1024, chunkCount: 2, createdAt: at, fileUrl: `/files/chunk-${id}.zip`,
  });
  await store.identity.addUploadBytes(id, '2026-01-01', 100);
  await store.desk.saveArrival({ clientId: id, mchId: MCH, platformId: PLATFORM, params: { cpay: `order-${id}` }, arrivedAt: at });
}

/** Registers the privacy cases against the store `current()` answers. */
export function privacyCases(current: () => Store): void {
  describe('a visitor\'s export and deletion', () => {
    it('visitorRecords holds everything that names the visitor, and nothing of another', async () => {
      const store = current();
      await everything(store, 'v1');
      await everything(store, 'v2');
      const r = await store.privacy.visitorRecords('v1');
      expect(r.visitor?.clientId).toBe('v1');
      expect(r.claimed).toBe(true);
      expect(r.sessions.map((s) => [s.sessionId, s.score, s.remark])).toEqual([['s-v1', 4, 'good']]);
      expect(r.messages.map((m) => m.fp)).toEqual(['m1-v1', 'm2-v1', 'm3-v1', 'g-v1']);
      expect(r.groupMemberships.map((m) => m.groupId)).toEqual(['g1']);
      expect(r.groupReads).toEqual([{ fp: 'g-v1', readAt: T0 + 6 }]);
      expect(r.complaints.map((c) => c.fp)).toEqual(['c-v1']);
      expect(r.leaveMessages.map((l) => l.fp)).toEqual(['l-v1']);
      expect(r.uploadedFiles).toEqual([file('up-v1.png', 'v1')]);
      expect(r.chunkedUploads.map((u) => u.uploadId)).toEqual(['u-v1']);
      expect(r.keySessions).toBe(1);
      expect(r.uploadUsage).toEqual([{ day: '2026-01-01', bytes: 100 }]);
      expect(r.arrivals).toEqual([{ clientId: 'v1', mchId: MCH, platformId: PLATFORM, params: { cpay: 'order-v1' }, arrivedAt: T0 }]);
      const none = await store.privacy.visitorRecords('nobody');
      expect(none).toMatchObject({ visitor: undefined, claimed: false, sessions: [], messages: [], complaints: [], keySessions: 0 });
    });

    it('deleteVisitor removes every row that names the visitor, names its files, and keeps the other visitor whole', async () => {
      const store = current();
      await everything(store, 'v1');
      await everything(store, 'v2');
      for (const id of ['v1', 'v2']) {
        // a conversation an agent transferred: the old agent's desk record goes with the visitor
        await store.chat.createSession(session(`t-${id}`, id, { state: 'active', agentId: 'agent:a', createdAt: T0 }));
        await store.chat.reassign(`t-${id}`, 'agent:a', 'agent:b', T0 + 1, 10);
      }
      expect((await store.desk.deskTransferred('agent:a', 10)).map((t) => t.session.sessionId).sort()).toEqual(['t-v1', 't-v2']);
      const before = await store.privacy.visitorRecords('v2');
      expect(await store.privacy.isDeleted('hash-of-v1')).toBe(false);
      const done = await store.privacy.deleteVisitor('v1', { idHash: 'hash-of-v1', at: T0 + 50 });
      expect(done.rows).toEqual({
        group_reads: 2, // its own read, and another's read of its group message
        messages: 4,
        conversation_seq: 1,
        session_transfers: 1,
        sessions: 2,
        complaints: 1,
        leave_messages: 1,
        uploads: 1,
        uploaded_files: 1,
        upload_usage: 1,
        group_members: 1,
        key_sessions: 1,
        visitor_arrivals: 1,
        visitors: 1,
      });
      expect(done.files.sort()).toEqual(['chunk-v1.zip', 'cimg-v1.png', 'doc-v1.pdf', 'img-v1.png', 'up-v1.png']);
      expect(done.uploadIds).toEqual(['u-v1']);
      const after = await store.privacy.visitorRecords('v1');
      expect(after).toEqual({
        visitor: undefined, claimed: false, sessions: [], messages: [], groupMemberships: [], groupReads: [], complaints: [], leaveMessages: [],
        uploadedFiles: [], chunkedUploads: [], keySessions: 0, uploadUsage: [], arrivals: [],
      });
      expect(await store.keys.bySaltKey('salt-v1')).toBeUndefined();
      expect(await store.identity.secretHash('v1')).toBeUndefined();
      expect(await store.privacy.visitorRecords('v2')).toEqual(before);
      expect((await store.desk.deskTransferred('agent:a', 10)).map((t) => t.session.sessionId)).toEqual(['t-v2']);
      // the tombstone (a hash, never the id) is kept until forgotten; a second deletion finds nothing and moves it on
      expect(await store.privacy.isDeleted('hash-of-v1')).toBe(true);
      expect((await store.privacy.deleteVisitor('v1', { idHash: 'hash-of-v1', at: T0 + 100 })).rows).toEqual({});
      expect(await store.privacy.forgetDeletedBefore(T0 + 100)).toBe(0);
      expect(await store.privacy.forgetDeletedBefore(T0 + 101)).toBe(1);
      expect(await store.privacy.isDeleted('hash-of-v1')).toBe(false);
      // the conversation counter is gone too: a new conversation of the id starts at 1
      const again = message('again', 'v1', T0 + 100);
      await store.chat.insertMessage(again);
      expect(again.seq).toBe(1);
    });

    it('filesInUse: the asked files a kept message or complaint names; nothing else', async () => {
      const store = current();
      await everything(store, 'v1');
      const asked = ['img-v1.png', 'doc-v1.pdf', 'cimg-v1.png', 'up-v1.png', 'chunk-v1.zip', 'img-v1', 'img_v1.png', '%', 'nothing.png'];
      // uploaded but never sent (up-, chunk-), a prefix, a wildcard, an unknown: not named
      expect(await store.privacy.filesInUse(asked)).toEqual(['img-v1.png', 'doc-v1.pdf', 'cimg-v1.png']);
      expect(await store.privacy.filesInUse([])).toEqual([]);
      await store.privacy.deleteVisitor('v1', { idHash: 'h', at: T0 });
      expect(await store.privacy.filesInUse(asked)).toEqual([]);
    });
  });

  describe('stored files', () => {
    it('added once per stored name; listed before a time by name, paged; forgotten', async () => {
      const store = current();
      await store.privacy.addUploadedFile(file('b.png', 'v1', T0));
      await store.privacy.addUploadedFile(file('a.png', 'v2', T0));
      await store.privacy.addUploadedFile(file('c.png', 'v1', T0 + DAY));
      await store.privacy.addUploadedFile(file('a.png', 'v3', T0)); // known: kept as it was
      expect((await store.privacy.uploadedFilesBefore(T0 + 1, '', 10)).map((f) => [f.storedName, f.owner])).toEqual([['a.png', 'v2'], ['b.png', 'v1']]);
      expect((await store.privacy.uploadedFilesBefore(T0 + 1, 'a.png', 10)).map((f) => f.storedName)).toEqual(['b.png']);
      expect((await store.privacy.uploadedFilesBefore(T0 + 1, '', 1)).map((f) => f.storedName)).toEqual(['a.png']);
      expect(await store.privacy.deleteUploadedFile('a.png')).toBe(true);
      expect(await store.privacy.deleteUploadedFile('a.png')).toBe(false);
    });
  });

  describe('retention', () => {
    it('expireBefore deletes what is older than the cutoff, in batches, and keeps the rest', async () => {
      const store = current();
      const old = T0;
      const cutoff = T0 + 10 * DAY;
      await everything(store, 'old1', old);
      await everything(store, 'old2', old + 1000);
      await everything(store, 'new1', cutoff + 1);
      // an open robot session from before the cutoff whose visitor wrote since: kept with that text
      await store.chat.saveVisitor(visitor('talking', { lastSeen: cutoff + 5 }));
      await store.chat.createSession(session('s-talking', 'talking', { createdAt: old }));
      await store.chat.insertMessage(message('m-old-talking', 'talking', old + 1, { sessionId: 's-talking' }));
      await store.chat.insertMessage(message('m-new-talking', 'talking', cutoff + 2, { sessionId: 's-talking' }));
      // an open robot session from before the cutoff with nothing since: gone; an active one: kept
      await store.chat.createSession(session('s-idle-robot', 'idle', { createdAt: old }));
      await store.chat.createSession(session('s-active', 'served', { createdAt: old, state: 'active', agentId: 'agent:alice' }));
      // a visitor last seen long ago keeps its row: retention removes conversations, not identities
      await store.chat.saveVisitor(visitor('quiet', { lastSeen: old }));

      const totals: Record<string, number> = {};
      const files: string[] = [];
      let batches = 0;
      for (let more = true; more; batches += 1) {
        const batch = await store.privacy.expireBefore(cutoff, 3);
        for (const [table, n] of Object.entries(batch.rows)) totals[table] = (totals[table] ?? 0) + n;
        files.push(...batch.files);
        more = batch.more;
        expect(batches).toBeLessThan(20);
      }
      expect(batches).toBeGreaterThan(1); // 9 old messages in batches of 3
      expect(totals).toEqual({
        messages: 9, // 4 each of old1 and old2, and the talking visitor's old text
        group_reads: 4,
        sessions: 3, // the ended ones of old1 and old2, and the idle robot session
        complaints: 2,
        leave_messages: 2,
        uploads: 2,
        visitor_arrivals: 2, // what old1 and old2 arrived with
      });
      expect(files.sort()).toEqual(
        ['chunk-old1.zip', 'chunk-old2.zip', 'cimg-old1.png', 'cimg-old2.png', 'doc-old1.pdf', 'doc-old2.pdf', 'img-old1.png', 'img-old2.png'].sort(),
      );
      const newer = await store.privacy.visitorRecords('new1');
      expect(newer.messages).toHaveLength(4);
      expect(newer.sessions).toHaveLength(1);
      expect(newer.complaints).toHaveLength(1);
      expect(newer.arrivals).toHaveLength(1);
      expect((await store.privacy.visitorRecords('talking')).messages.map((m) => m.fp)).toEqual(['m-new-talking']);
      expect(await store.chat.session('s-talking')).toBeDefined();
      expect(await store.chat.session('s-idle-robot')).toBeUndefined();
      expect(await store.chat.session('s-active')).toBeDefined();
      expect(await store.chat.visitor('quiet')).toBeDefined();
      expect(await store.chat.visitor('old1')).toBeDefined();
      // nothing older is left: another pass deletes nothing
      expect(await store.privacy.expireBefore(cutoff, 3)).toEqual({ rows: {}, files: [], more: false });
    });

    it('expireBefore also removes what belongs to removed sessions and visitors: transfers of deleted sessions, member rows of gone visitors', async () => {
      const store = current();
      const cutoff = T0 + 10 * DAY;
      // two conversations an agent transferred: one ended long ago (deleted), one still going (kept)
      for (const [id, endedAt] of [['gone', T0 + 5], ['kept', null]] as const) {
        await store.chat.saveVisitor(visitor(`v-${id}`, { createdAt: T0, lastSeen: T0 }));
        await store.chat.createSession(session(`t-${id}`, `v-${id}`, { state: 'active', agentId: 'agent:a', createdAt: T0 }));
        const moved = await store.chat.reassign(`t-${id}`, 'agent:a', 'agent:b', T0 + 1, 10);
        if (endedAt !== null) await store.chat.updateSession({ ...moved!, state: 'ended', endedAt });
      }
      // members: one whose visitor row is gone (a connect refused after the member was made), one
      // whose visitor is kept, one gone but verified after the cutoff (a connect under way: kept)
      const member = (sub: string, clientId: string, verifiedAt: number) => ({ mchId: MCH, sub, clientId, email: `${sub}@x.test`, createdAt: T0, verifiedAt });
      await store.members.addMember(member('orphan', 'vm-orphan', T0));
      await store.members.addMember(member('kept', 'v-kept', T0));
      await store.members.addMember(member('fresh', 'vm-new', cutoff + 1));

      const totals: Record<string, number> = {};
      for (let more = true, n = 0; more; n += 1) {
        const batch = await store.privacy.expireBefore(cutoff, 1);
        for (const [table, count] of Object.entries(batch.rows)) totals[table] = (totals[table] ?? 0) + count;
        more = batch.more;
        expect(n).toBeLessThan(10);
      }
      expect(totals).toEqual({ sessions: 1, session_transfers: 1, member_visitors: 1 });
      expect((await store.desk.deskTransferred('agent:a', 10)).map((t) => t.session.sessionId)).toEqual(['t-kept']);
      expect(await store.members.member(MCH, 'orphan')).toBeUndefined();
      expect((await store.members.member(MCH, 'kept'))?.clientId).toBe('v-kept');
      expect((await store.members.member(MCH, 'fresh'))?.clientId).toBe('vm-new');
      expect(await store.privacy.expireBefore(cutoff, 1)).toEqual({ rows: {}, files: [], more: false });
    });

    it('one claim per period: of claims made at once exactly one wins; runs are finished, listed newest first, forgotten', async () => {
      const store = current();
      const claims = await Promise.all(
        ['n1', 'n2', 'n3', 'n4'].map((node) => store.privacy.claimRetentionRun({ period: 7, node, cutoff: T0, startedAt: T0 + 1 })),
      );
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await store.privacy.claimRetentionRun({ period: 8, node: 'n2', cutoff: T0 + 1, startedAt: T0 + 2 })).toBe(true);
      await store.privacy.finishRetentionRun(8, T0 + 3, { messages: 5, files: 2 });
      const runs = await store.privacy.retentionRuns(10);
      expect(runs.map((r) => r.period)).toEqual([8, 7]);
      expect(runs[0]).toEqual({ period: 8, node: 'n2', cutoff: T0 + 1, startedAt: T0 + 2, finishedAt: T0 + 3, deleted: { messages: 5, files: 2 } });
      expect(runs[1]).toMatchObject({ period: 7, finishedAt: null, deleted: {} });
      expect(await store.privacy.forgetRetentionRuns(8)).toBe(1);
      expect((await store.privacy.retentionRuns(10)).map((r) => r.period)).toEqual([8]);
    });
  });
}
