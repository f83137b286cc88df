/**
 * Store contract: the directory, records (complaints, left messages, uploads), meta and ping.
 * @module
 */

import { describe, expect, it } from 'vitest';
import type { Store, UploadRecord } from '../../src/store/types.js';
import { MCH, PLATFORM, T0 } from './fixtures.js';

const upload = (uploadId: string, overrides: Partial<UploadRecord> = {}): UploadRecord => ({
  uploadId,
  clientKey: 'salt-1',
  fileName: 'a.png',
  fileSize: 5_000_000_000,
  mime: 'image/png',
  chunkSize: 1_048_576,
  chunkCount: 4769,
  createdAt: T0,
  fileUrl: null,
  ...overrides,
});

/** Registers the directory, record and meta cases against the store `current()` answers. */
export function directoryCases(current: () => Store): void {
  describe('directory', () => {
    it('merchants and platforms upsert; firstPlatform is the first inserted', async () => {
      const store = current();
      expect(await store.directory.firstPlatform()).toBeUndefined();
      await store.directory.putMerchant({ mchId: MCH, name: 'Shop', kefuAvatar2: 'k.png', extra: { b: 1, a: [1, 'x'], nested: { z: null } } });
      await store.directory.putMerchant({ mchId: MCH, name: 'Shop 2', kefuAvatar2: 'k.png', extra: { b: 2, a: 1 } });
      const merchant = await store.directory.merchant(MCH);
      expect(merchant).toEqual({ mchId: MCH, name: 'Shop 2', kefuAvatar2: 'k.png', extra: { b: 2, a: 1 } });
      expect(Object.keys(merchant?.extra ?? {})).toEqual(['b', 'a']);
      await store.directory.putPlatform({ mchId: MCH, platformId: 'zz', name: 'Z', enabled: true });
      await store.directory.putPlatform({ mchId: MCH, platformId: 'aa', name: 'A', enabled: true });
      await store.directory.putPlatform({ mchId: MCH, platformId: 'zz', name: 'Z2', enabled: false });
      expect(await store.directory.firstPlatform()).toEqual({ mchId: MCH, platformId: 'zz', name: 'Z2', enabled: false });
      expect(await store.directory.platform(MCH, 'aa')).toEqual({ mchId: MCH, platformId: 'aa', name: 'A', enabled: true });
      expect(await store.directory.platform(MCH, 'nope')).toBeUndefined();
    });

    it('groups upsert; addMember keeps an existing member; members list staff first, then by joining', async () => {
      const store = current();
      await store.directory.putGroup({ groupId: 'g1', mchId: MCH, name: 'G', kind: 'channel', avatar: '', notice: 'n', open: false });
      expect(await store.directory.group('g1')).toEqual({ groupId: 'g1', mchId: MCH, name: 'G', kind: 'channel', avatar: '', notice: 'n', open: false });
      await store.directory.putGroup({ groupId: 'g1', mchId: MCH, name: 'G2', kind: 'group', avatar: 'a', notice: '', open: true });
      expect((await store.directory.group('g1'))?.open).toBe(true);
      const member = { groupId: 'g1', name: 'm', avatar: '', role: 'member' as const };
      await store.directory.addMember({ ...member, clientId: 'v1', joinedAt: T0 + 1 });
      await store.directory.addMember({ ...member, clientId: 'v2', joinedAt: T0 });
      await store.directory.addMember({ ...member, clientId: 'boss', role: 'staff', joinedAt: T0 + 9 });
      await store.directory.addMember({ ...member, clientId: 'v1', name: 'changed', joinedAt: T0 + 99 });
      expect(await store.directory.member('g1', 'v1')).toEqual({ ...member, clientId: 'v1', joinedAt: T0 + 1 });
      expect((await store.directory.members('g1')).map((m) => m.clientId)).toEqual(['boss', 'v2', 'v1']);
      expect(await store.directory.member('g1', 'nope')).toBeUndefined();
    });

    it('members who joined in one millisecond are listed by client id (byte order), staff still first', async () => {
      const store = current();
      const member = { groupId: 'g1', name: 'm', avatar: '', role: 'member' as const, joinedAt: T0 };
      for (const clientId of ['zed', 'Bob', 'amy']) await store.directory.addMember({ ...member, clientId });
      await store.directory.addMember({ ...member, clientId: 'zz-staff', role: 'staff', joinedAt: T0 + 1 });
      await store.directory.addMember({ ...member, clientId: 'Al-staff', role: 'staff', joinedAt: T0 + 1 });
      expect((await store.directory.members('g1')).map((m) => m.clientId)).toEqual(['Al-staff', 'zz-staff', 'Bob', 'amy', 'zed']);
    });

    it('FAQ: categories and questions by sort then id, per language; the languages', async () => {
      const store = current();
      const category = { mchId: MCH, platformId: PLATFORM, language: 'en', name: 'c' };
      await store.directory.putCategory({ ...category, id: 'b', sort: 1 });
      await store.directory.putCategory({ ...category, id: 'a', sort: 1 });
      await store.directory.putCategory({ ...category, id: 'Z', sort: 1 });
      await store.directory.putCategory({ ...category, id: 'c', sort: 0 });
      await store.directory.putCategory({ ...category, id: 'zh1', language: 'zh', sort: 0 });
      expect((await store.directory.categories(MCH, PLATFORM, 'en')).map((c) => c.id)).toEqual(['c', 'Z', 'a', 'b']);
      const question = { categoryId: 'a', mchId: MCH, platformId: PLATFORM, question: 'q', answer: 'a', keywords: 'k1,k2', sort: 0 };
      await store.directory.putQuestion({ ...question, id: 'q2', language: 'en' });
      await store.directory.putQuestion({ ...question, id: 'q1', language: 'zh' });
      await store.directory.putQuestion({ ...question, id: 'q3', language: 'Fr', sort: -1 });
      await store.directory.putQuestion({ ...question, id: 'q2', language: 'en', answer: 'new', sort: 2 });
      expect(await store.directory.question('q2')).toEqual({ ...question, id: 'q2', language: 'en', answer: 'new', sort: 2 });
      expect((await store.directory.questions(MCH, PLATFORM)).map((q) => q.id)).toEqual(['q3', 'q1', 'q2']);
      expect((await store.directory.questions(MCH, PLATFORM, 'en')).map((q) => q.id)).toEqual(['q2']);
      expect(await store.directory.faqLanguages(MCH, PLATFORM)).toEqual(['Fr', 'en', 'zh']);
      expect(await store.directory.question('nope')).toBeUndefined();
    });

    it('orders and entry links upsert', async () => {
      const store = current();
      const order = { mchId: MCH, orderNo: 'o1', userAccount: 'u', userMchId: 'um', amount: '10.00', status: 'paid' };
      await store.directory.putOrder(order);
      await store.directory.putOrder({ ...order, status: 'refunded' });
      expect(await store.directory.order(MCH, 'o1')).toEqual({ ...order, status: 'refunded' });
      expect(await store.directory.order(MCH, 'o2')).toBeUndefined();
      await store.directory.putEntryLink('p', 'raw1');
      await store.directory.putEntryLink('p', 'raw2');
      expect(await store.directory.entryLink('p')).toBe('raw2');
      expect(await store.directory.entryLink('q')).toBeUndefined();
    });
  });

  describe('records', () => {
    it('complaints and left messages: stored once per fp, the stored one answered', async () => {
      const store = current();
      const complaint = { fp: 'c1', clientId: 'v1', mchId: MCH, platformId: PLATFORM, account: 'acc', description: 'd', occurredAt: T0, images: ['a', 'b'], video: null, createdAt: T0 };
      expect(await store.records.addComplaint(complaint)).toEqual(complaint);
      expect(await store.records.addComplaint({ ...complaint, description: 'other' })).toEqual(complaint);
      await store.records.addComplaint({ ...complaint, fp: 'c0', createdAt: T0 - 1, video: 'v.mp4', images: [] });
      expect((await store.records.complaints('v1')).map((c) => c.fp)).toEqual(['c0', 'c1']);
      const leave = { fp: 'l1', clientId: 'v1', mchId: MCH, platformId: PLATFORM, contact: 'mail', content: 'hi', name: 'n', createdAt: T0 };
      expect(await store.records.addLeaveMessage(leave)).toEqual(leave);
      expect(await store.records.addLeaveMessage({ ...leave, content: 'x' })).toEqual(leave);
      expect(await store.records.leaveMessages('v1')).toEqual([leave]);
      expect(await store.records.leaveMessages('v2')).toEqual([]);
    });

    it('uploads: put (only fileUrl changes later), resume the newest unfinished, stale ones, delete', async () => {
      const store = current();
      await store.records.putUpload(upload('u1'));
      await store.records.putUpload(upload('u2', { createdAt: T0 + 10 }));
      await store.records.putUpload(upload('u3', { createdAt: T0 + 20, fileUrl: '/f/u3' }));
      expect(await store.records.upload('u1')).toEqual(upload('u1'));
      expect((await store.records.resumableUpload('salt-1', 'a.png', 5_000_000_000, 'image/png'))?.uploadId).toBe('u2');
      await store.records.putUpload(upload('u2', { fileUrl: '/f/u2', fileName: 'ignored' }));
      expect(await store.records.upload('u2')).toEqual(upload('u2', { createdAt: T0 + 10, fileUrl: '/f/u2' }));
      expect((await store.records.resumableUpload('salt-1', 'a.png', 5_000_000_000, 'image/png'))?.uploadId).toBe('u1');
      expect(await store.records.resumableUpload('salt-2', 'a.png', 5_000_000_000, 'image/png')).toBeUndefined();
      expect((await store.records.staleUploads(T0 + 30)).map((u) => u.uploadId)).toEqual(['u1']);
      await store.records.deleteUpload('u1');
      expect(await store.records.upload('u1')).toBeUndefined();
      expect(await store.records.staleUploads(T0 + 30)).toEqual([]);
    });
  });

  describe('meta and ping', () => {
    it('setMeta upserts, meta reads; ping answers', async () => {
      const store = current();
      expect(await store.meta('seeded')).toBeUndefined();
      await store.setMeta('seeded', '1');
      await store.setMeta('seeded', '2');
      expect(await store.meta('seeded')).toBe('2');
      await expect(store.ping()).resolves.toBeUndefined();
    });
  });

  describe('merchant hours', () => {
    it('are kept as the JSON text given, replaced by a later put and removed with null', async () => {
      const store = current();
      expect(await store.directory.merchantHours(MCH)).toBeUndefined();
      const hours = JSON.stringify({ timeZone: 'Asia/Shanghai', days: { mon: [['09:00', '18:00']] } });
      await store.directory.putMerchantHours(MCH, hours, T0);
      expect(await store.directory.merchantHours(MCH)).toBe(hours);
      expect(await store.directory.merchantHours('other')).toBeUndefined();
      const later = JSON.stringify({ timeZone: 'UTC', days: {} });
      await store.directory.putMerchantHours(MCH, later, T0 + 1);
      expect(await store.directory.merchantHours(MCH)).toBe(later);
      await store.directory.putMerchantHours(MCH, null, T0 + 2);
      expect(await store.directory.merchantHours(MCH)).toBeUndefined();
      await store.directory.putMerchantHours(MCH, null, T0 + 3);
      expect(await store.directory.merchantHours(MCH)).toBeUndefined();
    });
  });
}
