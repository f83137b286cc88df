/**
 * Store contract: verified identity (protocol §3b): members and their stable visitor ids, the
 * merge of an anonymous visitor into a member, sealed merchant secrets.
 * @module
 */

import { describe, expect, it } from 'vitest';
import type { Member } from '../../src/store/member-types.js';
import type { Store } from '../../src/store/types.js';
import { fps, MCH, message, PLATFORM, session, T0, visitor } from './fixtures.js';

const member = (sub: string, clientId: string, overrides: Partial<Member> = {}): Member => ({
  mchId: MCH,
  sub,
  clientId,
  email: null,
  createdAt: T0,
  verifiedAt: T0,
  ...overrides,
});

/** Registers the member cases against the store `current()` answers. */
export function memberCases(current: () => Store): void {
  describe('members (protocol §3b)', () => {
    it('addMember stores once per (merchant, sub) and answers the stored one; later adds bring verifiedAt and email up to date', async () => {
      const store = current();
      expect(await store.members.member(MCH, 'ann')).toBeUndefined();
      expect(await store.members.addMember(member('ann', 'm-1', { email: 'a@x.test' }))).toEqual(member('ann', 'm-1', { email: 'a@x.test' }));
      // a second connect (another node) proposing another id gets the first one
      expect(await store.members.addMember(member('ann', 'm-2', { verifiedAt: T0 + 5 }))).toEqual(member('ann', 'm-1', { email: 'a@x.test', verifiedAt: T0 + 5 }));
      expect(await store.members.addMember(member('ann', 'm-3', { email: 'new@x.test', verifiedAt: T0 + 1 }))).toEqual(
        member('ann', 'm-1', { email: 'new@x.test', verifiedAt: T0 + 5 }),
      );
      // the same sub of another merchant is another member
      expect((await store.members.addMember(member('ann', 'm-4', { mchId: 'other' }))).clientId).toBe('m-4');
      expect(await store.members.memberByClientId('m-1')).toMatchObject({ mchId: MCH, sub: 'ann' });
      expect(await store.members.memberByClientId('m-2')).toBeUndefined();
      expect(await store.members.deleteMemberOf('m-1')).toBe(true);
      expect(await store.members.deleteMemberOf('m-1')).toBe(false);
      expect(await store.members.member(MCH, 'ann')).toBeUndefined();
    });

    it('mergeVisitor re-owns everything of the anonymous id, numbers its messages after the member\'s, and retires it', async () => {
      const store = current();
      await store.chat.saveVisitor(visitor('anon'));
      await store.chat.saveVisitor(visitor('m-1'));
      await store.identity.claim('anon', 'hash');
      // the member's own conversation: two messages, an open session
      expect(await store.chat.insertMessage(message('m1', 'm-1', T0 + 10))).toBe(true);
      expect(await store.chat.insertMessage(message('m2', 'm-1', T0 + 30))).toBe(true);
      await store.chat.createSession(session('s-member', 'm-1'));
      // the anonymous one: two messages (one to it), an open session, a rated ended one
      expect(await store.chat.insertMessage(message('a1', 'anon', T0 + 20))).toBe(true);
      expect(await store.chat.insertMessage(message('a2', 'anon', T0 + 40, { from: 'robot', to: 'anon' }))).toBe(true);
      await store.chat.createSession(session('s-anon-open', 'anon'));
      await store.chat.createSession(session('s-anon-old', 'anon', { state: 'ended', endedAt: T0, score: 5, remark: 'good' }));
      await store.keys.create({ saltKey: 'keep', requestKey: 'rk-keep', aesKey: 'a'.repeat(32), token: 't'.repeat(32), createdAt: T0, lastUsed: T0 });
      await store.keys.create({ saltKey: 'other-tab', requestKey: 'rk-other', aesKey: 'a'.repeat(32), token: 't'.repeat(32), createdAt: T0, lastUsed: T0 });
      await store.identity.bindKeySession('keep', 'anon');
      await store.identity.bindKeySession('other-tab', 'anon');

      const moved = await store.members.mergeVisitor('anon', 'm-1', 'keep', { idHash: 'hash-of-anon', at: T0 + 100 });
      expect(moved).toMatchObject({ messages: 2, sessions: 2, key_sessions: 1, visitors: 1 });

      const conversation = await store.chat.conversation('m-1', MCH, PLATFORM, { size: 10 });
      expect(fps(conversation).sort()).toEqual(['a1', 'a2', 'm1', 'm2']);
      const seqOf = Object.fromEntries(conversation.map((m) => [m.fp, m.seq]));
      expect(seqOf).toEqual({ m1: 1, m2: 2, a1: 3, a2: 4 });
      expect(conversation.find((m) => m.fp === 'a2')?.to).toBe('m-1');
      expect(conversation.find((m) => m.fp === 'a1')?.from).toBe('m-1');
      // the next message of the member follows the merged ones
      const next = message('m3', 'm-1', T0 + 200);
      expect(await store.chat.insertMessage(next)).toBe(true);
      expect(next.seq).toBe(5);
      expect(await store.chat.conversation('anon', MCH, PLATFORM, { size: 10 })).toEqual([]);
      // one open session per conversation: the anonymous open one was ended; the rating kept
      const records = await store.privacy.visitorRecords('m-1');
      expect(records.sessions.map((s) => [s.sessionId, s.state]).sort()).toEqual([
        ['s-anon-old', 'ended'],
        ['s-anon-open', 'ended'],
        ['s-member', 'robot'],
      ]);
      expect(records.sessions.find((s) => s.sessionId === 's-anon-old')).toMatchObject({ score: 5, remark: 'good' });
      // the key session of the merging connect speaks for the member; the other tab's is gone
      expect((await store.keys.bySaltKey('keep'))?.boundTo).toBe('m-1');
      expect(await store.keys.bySaltKey('other-tab')).toBeUndefined();
      // retired: no visitor row, no secret, a tombstone
      expect(await store.chat.visitor('anon')).toBeUndefined();
      expect(await store.identity.secretHash('anon')).toBeUndefined();
      expect(await store.privacy.isDeleted('hash-of-anon')).toBe(true);
    });

    it('mergeVisitor keeps a ban or blacklisting of the anonymous id on the member', async () => {
      const store = current();
      await store.chat.saveVisitor(visitor('banned-anon', { banned: true }));
      await store.chat.saveVisitor(visitor('listed-anon', { blacklisted: true }));
      await store.chat.saveVisitor(visitor('m-b'));
      await store.chat.saveVisitor(visitor('m-c'));
      await store.members.mergeVisitor('banned-anon', 'm-b', 'none', { idHash: 'h-b', at: T0 });
      await store.members.mergeVisitor('listed-anon', 'm-c', 'none', { idHash: 'h-c', at: T0 });
      expect(await store.chat.visitor('m-b')).toMatchObject({ banned: true, blacklisted: false });
      expect(await store.chat.visitor('m-c')).toMatchObject({ banned: false, blacklisted: true });
    });

    it('merchant secrets are kept sealed, listed per merchant oldest first, replaced by id, removed', async () => {
      const store = current();
      await store.members.putMerchantSecret({ mchId: 'M1', secretId: 'b', sealed: 'v1.k.BBB', createdAt: T0 + 1 });
      await store.members.putMerchantSecret({ mchId: 'M1', secretId: 'a', sealed: 'v1.k.AAA', createdAt: T0 });
      await store.members.putMerchantSecret({ mchId: 'M2', secretId: 'c', sealed: 'v1.k.CCC', createdAt: T0 });
      expect((await store.members.merchantSecrets('M1')).map((s) => s.secretId)).toEqual(['a', 'b']);
      expect((await store.members.merchantSecrets()).map((s) => `${s.mchId}/${s.secretId}`)).toEqual(['M1/a', 'M1/b', 'M2/c']);
      await store.members.putMerchantSecret({ mchId: 'M1', secretId: 'a', sealed: 'v1.k.NEW', createdAt: T0 + 2 });
      expect((await store.members.merchantSecrets('M1')).map((s) => s.sealed)).toEqual(['v1.k.BBB', 'v1.k.NEW']);
      expect(await store.members.removeMerchantSecret('M1', 'b')).toBe(true);
      expect(await store.members.removeMerchantSecret('M1', 'b')).toBe(false);
      expect((await store.members.merchantSecrets('M1')).map((s) => s.secretId)).toEqual(['a']);
    });

    it('a privacy deletion removes the member row with everything else', async () => {
      const store = current();
      await store.chat.saveVisitor(visitor('m-9'));
      await store.members.addMember(member('gone', 'm-9'));
      expect((await store.privacy.visitorRecords('m-9')).member).toMatchObject({ sub: 'gone' });
      const deleted = await store.privacy.deleteVisitor('m-9', { idHash: 'h9', at: T0 });
      expect(deleted.rows).toMatchObject({ member_visitors: 1, visitors: 1 });
      expect(await store.members.member(MCH, 'gone')).toBeUndefined();
      expect((await store.privacy.visitorRecords('m-9')).member).toBeUndefined();
    });
  });
}
