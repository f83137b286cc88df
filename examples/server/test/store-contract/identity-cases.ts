/**
 * Store contract: key sessions and identity (claims, bindings, upload usage, agents, tokens).
 * @module
 */

import { describe, expect, it } from 'vitest';
import type { KeySession, Store } from '../../src/store/types.js';
import { MCH, session, T0, visitor } from './fixtures.js';

const keySession = (saltKey: string, lastUsed = T0): Omit<KeySession, 'boundTo'> => ({
  saltKey,
  requestKey: `rk-${saltKey}`,
  aesKey: 'a'.repeat(32),
  token: 't'.repeat(32),
  createdAt: T0,
  lastUsed,
});

/** Registers the key-session and identity cases against the store `current()` answers. */
export function identityCases(current: () => Store, kind: 'sqlite' | 'postgres'): void {
  describe('key sessions', () => {
    it('create, then find by request key and by salt key (unbound)', async () => {
      const store = current();
      await store.keys.create(keySession('s1'));
      const expected = { ...keySession('s1'), boundTo: null };
      expect(await store.keys.bySaltKey('s1')).toEqual(expected);
      expect(await store.keys.byRequestKey('rk-s1')).toEqual(expected);
      expect(await store.keys.bySaltKey('nope')).toBeUndefined();
      await expect(store.keys.create(keySession('s1'))).rejects.toThrow();
    });

    it('touch moves lastUsed; deleteUnusedSince deletes the older ones and counts them', async () => {
      const store = current();
      await store.keys.create(keySession('s1', T0));
      await store.keys.create(keySession('s2', T0));
      await store.keys.create(keySession('s3', T0 + 50));
      await store.keys.touch('s2', T0 + 100);
      expect((await store.keys.bySaltKey('s2'))?.lastUsed).toBe(T0 + 100);
      expect(await store.keys.deleteUnusedSince(T0 + 50)).toBe(1);
      expect(await store.keys.bySaltKey('s1')).toBeUndefined();
      expect(await store.keys.bySaltKey('s3')).toBeDefined();
    });

    it('deleteUnusedSince deletes the unbound ones by their own, shorter limit and keeps the bound ones until the first', async () => {
      const store = current();
      for (const name of ['bound-old', 'bound-new', 'free-old', 'free-new']) await store.keys.create(keySession(name, name.endsWith('old') ? T0 : T0 + 80));
      await store.chat.saveVisitor(visitor('v1'));
      expect(await store.identity.bindKeySession('bound-old', 'v1')).toBe(true);
      expect(await store.identity.bindKeySession('bound-new', 'v1')).toBe(true);
      // bound: last used before T0 + 10 goes; unbound: before T0 + 90
      expect(await store.keys.deleteUnusedSince(T0 + 10, T0 + 90)).toBe(3);
      expect(await store.keys.bySaltKey('bound-old')).toBeUndefined();
      expect(await store.keys.bySaltKey('free-old')).toBeUndefined();
      expect(await store.keys.bySaltKey('free-new')).toBeUndefined();
      expect(await store.keys.bySaltKey('bound-new')).toBeDefined();
    });
  });

  describe('identity', () => {
    it('claim stores a secret hash once, only for a known visitor', async () => {
      const store = current();
      expect(await store.identity.claim('v1', 'h1')).toBe(false);
      await store.chat.saveVisitor(visitor('v1'));
      expect(await store.identity.secretHash('v1')).toBeUndefined();
      expect(await store.identity.claim('v1', 'h1')).toBe(true);
      expect(await store.identity.claim('v1', 'h2')).toBe(false);
      expect(await store.identity.secretHash('v1')).toBe('h1');
    });

    it('bindKeySession binds once to one identity (again to the same is fine)', async () => {
      const store = current();
      await store.keys.create(keySession('s1'));
      expect(await store.identity.bindKeySession('s1', 'v1')).toBe(true);
      expect(await store.identity.bindKeySession('s1', 'v1')).toBe(true);
      expect(await store.identity.bindKeySession('s1', 'agent:a')).toBe(false);
      expect(await store.identity.bindKeySession('unknown', 'v1')).toBe(false);
      expect((await store.keys.bySaltKey('s1'))?.boundTo).toBe('v1');
    });

    it('assigned: whether any session of the visitor with one of the merchants went to the agent', async () => {
      const store = current();
      await store.chat.createSession(session('s1', 'v1', { state: 'ended', agentId: 'agent:a' }));
      expect(await store.identity.assigned('agent:a', 'v1', [MCH])).toBe(true);
      expect(await store.identity.assigned('agent:a', 'v1', ['mch-2', MCH])).toBe(true);
      expect(await store.identity.assigned('agent:a', 'v2', [MCH])).toBe(false);
      // another merchant's conversation of the same visitor is not this agent's to name
      expect(await store.identity.assigned('agent:a', 'v1', ['mch-2'])).toBe(false);
      expect(await store.identity.assigned('agent:a', 'v1', [])).toBe(false);
    });

    it('upload bytes add up per day, refunds never take them below 0, older days are dropped', async () => {
      const store = current();
      expect(await store.identity.uploadBytes('v1', '2026-01-01')).toBe(0);
      await store.identity.addUploadBytes('v1', '2026-01-01', 3_000_000_000);
      await store.identity.addUploadBytes('v1', '2026-01-01', 1.9);
      expect(await store.identity.uploadBytes('v1', '2026-01-01')).toBe(3_000_000_001);
      await store.identity.addUploadBytes('v1', '2026-01-01', -5_000_000_000);
      expect(await store.identity.uploadBytes('v1', '2026-01-01')).toBe(0);
      await store.identity.addUploadBytes('v2', '2026-01-02', 10);
      expect(await store.identity.uploadBytes('v1', '2026-01-01')).toBe(0);
      expect(await store.identity.uploadBytes('v2', '2026-01-02')).toBe(10);
    });

    // SQLite inserts a first refund as it is (VALUES (?, ?, ?) without MAX(0, ...)): see the report.
    it('a refund before any upload that day leaves usage at 0', async () => {
      const store = current();
      await store.identity.addUploadBytes('v1', '2026-01-01', -10);
      expect(await store.identity.uploadBytes('v1', '2026-01-01')).toBe(0);
    });

    it('agents: put (update keeps createdAt), list by account, remove', async () => {
      const store = current();
      await store.identity.putAgent({ account: 'bob', name: 'Bob', passwordHash: 'h1', merchants: [MCH], createdAt: T0 });
      await store.identity.putAgent({ account: 'Zed', name: 'Zed', passwordHash: 'h', merchants: [MCH], createdAt: T0 });
      await store.identity.putAgent({ account: 'alice', name: 'Alice', passwordHash: 'h', merchants: [MCH], createdAt: T0 });
      await store.identity.putAgent({ account: 'bob', name: 'Bobby', passwordHash: 'h2', merchants: ['m2', 'm.3'], createdAt: T0 + 9 });
      expect(await store.identity.agent('bob')).toEqual({ account: 'bob', name: 'Bobby', passwordHash: 'h2', merchants: ['m2', 'm.3'], createdAt: T0 });
      expect((await store.identity.agent('alice'))?.merchants).toEqual([MCH]);
      expect((await store.identity.agents()).map((a) => a.account)).toEqual(['Zed', 'alice', 'bob']);
      expect(await store.identity.removeAgent('bob')).toBe(true);
      expect(await store.identity.removeAgent('bob')).toBe(false);
      expect(await store.identity.agent('bob')).toBeUndefined();
    });

    it('agent tokens: used until they expire (each use extends), revoked once', async () => {
      const store = current();
      await store.identity.putAgentToken('tok', 'alice', T0, T0 + 100);
      expect(await store.identity.useAgentToken('tok', T0 + 50, T0 + 200)).toBe('alice');
      expect(await store.identity.useAgentToken('tok', T0 + 150, T0 + 300)).toBe('alice');
      expect(await store.identity.useAgentToken('tok', T0 + 300, T0 + 400)).toBeUndefined();
      await store.identity.putAgentToken('tok2', 'alice', T0, T0 + 100);
      expect(await store.identity.revokeAgentToken('tok2')).toBe(true);
      expect(await store.identity.revokeAgentToken('tok2')).toBe(false);
      expect(await store.identity.useAgentToken('tok2', T0, T0 + 100)).toBeUndefined();
      expect(await store.identity.useAgentToken('unknown', T0, T0 + 100)).toBeUndefined();
    });

    it('revokeAgentTokensOf forgets every token of the account ("log out everywhere"), no other account\'s', async () => {
      const store = current();
      for (const tok of ['t1', 't2', 't3']) await store.identity.putAgentToken(tok, 'alice', T0, T0 + 1000);
      await store.identity.putAgentToken('b1', 'bob', T0, T0 + 1000);
      expect(await store.identity.revokeAgentTokensOf('alice')).toBe(3);
      expect(await store.identity.revokeAgentTokensOf('alice')).toBe(0);
      for (const tok of ['t1', 't2', 't3']) expect(await store.identity.useAgentToken(tok, T0 + 1, T0 + 1000)).toBeUndefined();
      expect(await store.identity.useAgentToken('b1', T0 + 1, T0 + 1000)).toBe('bob');
    });

    it('putAgentToken prunes expired tokens; removeAgent revokes the agent’s tokens', async () => {
      const store = current();
      await store.identity.putAgent({ account: 'alice', name: 'Alice', passwordHash: 'h', merchants: [MCH], createdAt: T0 });
      await store.identity.putAgentToken('old', 'bob', T0, T0 + 10);
      await store.identity.putAgentToken('a1', 'alice', T0 + 10, T0 + 1000);
      expect(await store.identity.revokeAgentToken('old')).toBe(false);
      await store.identity.putAgentToken('b1', 'bob', T0 + 10, T0 + 1000);
      expect(await store.identity.removeAgent('alice')).toBe(true);
      expect(await store.identity.useAgentToken('a1', T0 + 20, T0 + 1000)).toBeUndefined();
      expect(await store.identity.useAgentToken('b1', T0 + 20, T0 + 1000)).toBe('bob');
    });
  });
}
