import { BroadcastChannel as NodeBroadcastChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { decodeTabMessage, TAB_PROTOCOL_VERSION, TabChannel, tabScopeName, type BroadcastChannelConstructor, type TabMessage } from './tab-channel.js';
import { createFakeChannels, flushTabs } from './tabs.fixture.js';

describe('tab messages', () => {
  it('decodes every kind of this version', () => {
    const v = TAB_PROTOCOL_VERSION;
    expect(decodeTabMessage({ v, kind: 'hello', from: 't1' })).toEqual({ kind: 'hello', from: 't1' });
    expect(decodeTabMessage({ v, kind: 'bye', from: 't1' })).toEqual({ kind: 'bye', from: 't1' });
    expect(decodeTabMessage({ v, kind: 'snapshot', from: 't1', snapshot: { state: 'open', userId: 'U1' } })).toEqual({
      kind: 'snapshot',
      from: 't1',
      snapshot: { state: 'open', userId: 'U1' },
    });
    const keySession = { saltKey: 's1', userKey: 'k1' };
    expect(decodeTabMessage({ v, kind: 'snapshot', from: 't1', snapshot: { state: 'open', keySession } })).toEqual({ kind: 'snapshot', from: 't1', snapshot: { state: 'open', keySession } });
    expect(decodeTabMessage({ v, kind: 'snapshot', from: 't1', snapshot: { state: 'open', keySession: { saltKey: 1 } } })).toEqual({ kind: 'snapshot', from: 't1', snapshot: { state: 'open' } });
    expect(decodeTabMessage({ v, kind: 'snapshot', from: 't1', snapshot: { state: 'open', identityToken: 'a.b.c' } })).toEqual({ kind: 'snapshot', from: 't1', snapshot: { state: 'open', identityToken: 'a.b.c' } });
    for (const identityToken of [42, '', null, { t: 'a.b.c' }]) {
      expect(decodeTabMessage({ v, kind: 'snapshot', from: 't1', snapshot: { state: 'open', identityToken } })).toEqual({ kind: 'snapshot', from: 't1', snapshot: { state: 'open' } });
    }
    const message = { type: 100, fp: 'f1', dataContent: 'hi' };
    expect(decodeTabMessage({ v, kind: 'inbound', from: 't1', message, encrypted: true })).toEqual({ kind: 'inbound', from: 't1', message, encrypted: true });
    expect(decodeTabMessage({ v, kind: 'send', from: 't2', message })).toEqual({ kind: 'send', from: 't2', message });
    expect(decodeTabMessage({ v, kind: 'identity', from: 't2', change: 'reset', previous: 'vm-1', clientId: 'u2' })).toEqual({
      kind: 'identity',
      from: 't2',
      change: 'reset',
      previous: 'vm-1',
      clientId: 'u2',
    });
  });

  it('ignores other versions, unknown kinds and malformed values', () => {
    const v = TAB_PROTOCOL_VERSION;
    for (const bad of [
      null,
      'hello',
      [],
      { kind: 'hello', from: 't1' },
      { v: v + 1, kind: 'hello', from: 't1' },
      { v, kind: 'hello' },
      { v, kind: 'hello', from: '' },
      { v, kind: 'shout', from: 't1' },
      { v, kind: 'snapshot', from: 't1', snapshot: { state: 'weird' } },
      { v, kind: 'snapshot', from: 't1' },
      { v, kind: 'send', from: 't1', message: { type: '100' } },
      { v, kind: 'inbound', from: 't1', message: null },
      { v, kind: 'identity', from: 't1', change: 'logout', previous: 'a', clientId: 'b' },
      { v, kind: 'identity', from: 't1', change: 'reset', previous: '', clientId: 'b' },
      { v, kind: 'identity', from: 't1', change: 'reset', previous: 'a' },
    ]) {
      expect(decodeTabMessage(bad)).toBeNull();
    }
  });
});

describe('names are scoped per identity', () => {
  it('carries the client id, merchant and platform (and the group and agent role when present)', () => {
    expect(tabScopeName('kefu-im', 'uuid-1', { mchId: 'M1001', platformId: 'P01' })).toBe('kefu-im:uuid-1:M1001:P01');
    expect(tabScopeName('kefu-im', 'uuid-1', { mchId: 1001, platformId: 1, groupId: 'G100' })).toBe('kefu-im:uuid-1:1001:1:gG100');
    expect(tabScopeName('kefu-im', 'uuid-1', { mchId: 'M', platformId: 'P', groupId: '0' })).toBe('kefu-im:uuid-1:M:P');
    expect(tabScopeName('kefu-im', 'uuid-1', { role: 'agent' })).toBe('kefu-im:uuid-1:::agent');
  });

  it('differs for another visitor, merchant or platform, and cannot be forged with separators', () => {
    const base = tabScopeName('kefu-im', 'u1', { mchId: 'M1', platformId: 'P1' });
    expect(tabScopeName('kefu-im', 'u2', { mchId: 'M1', platformId: 'P1' })).not.toBe(base);
    expect(tabScopeName('kefu-im', 'u1', { mchId: 'M2', platformId: 'P1' })).not.toBe(base);
    expect(tabScopeName('kefu-im', 'u1', { mchId: 'M1', platformId: 'P2' })).not.toBe(base);
    expect(tabScopeName('kefu-im', 'u1:M1', { mchId: 'P1', platformId: '' })).not.toBe(base);
  });
});

describe('TabChannel', () => {
  it('delivers a posted message to every other tab of the name, not to itself nor to other names', async () => {
    const channels = createFakeChannels();
    const got: Record<string, TabMessage[]> = { a: [], b: [], c: [] };
    const a = new TabChannel('n1', channels.BroadcastChannel, (m) => got['a']!.push(m), () => undefined);
    const b = new TabChannel('n1', channels.BroadcastChannel, (m) => got['b']!.push(m), () => undefined);
    const c = new TabChannel('n2', channels.BroadcastChannel, (m) => got['c']!.push(m), () => undefined);
    expect(a.post({ kind: 'hello', from: 'ta' })).toBe(true);
    await flushTabs();
    expect(got).toEqual({ a: [], b: [{ kind: 'hello', from: 'ta' }], c: [] });
    for (const ch of [a, b, c]) ch.close();
    expect(channels.open).toBe(0);
    expect(channels.listeners).toBe(0);
  });

  it('reports a message that cannot be posted instead of throwing', () => {
    const channels = createFakeChannels();
    const errors: Error[] = [];
    const a = new TabChannel('n1', channels.BroadcastChannel, () => undefined, (e) => errors.push(e));
    const uncloneable = { type: 100, dataContent: 'x', f: () => 1 };
    expect(a.post({ kind: 'send', from: 'ta', message: uncloneable })).toBe(false);
    expect(errors).toHaveLength(1);
    a.close();
    expect(a.post({ kind: 'hello', from: 'ta' })).toBe(false);
  });

  it("works over Node's own BroadcastChannel (worker_threads)", async () => {
    const Channel = NodeBroadcastChannel as unknown as BroadcastChannelConstructor;
    const received = new Promise<TabMessage>((resolve) => {
      const b = new TabChannel('kefu-im:node-test', Channel, (m) => {
        b.close();
        resolve(m);
      }, () => undefined);
    });
    const a = new TabChannel('kefu-im:node-test', Channel, () => undefined, () => undefined);
    a.post({ kind: 'send', from: 'ta', message: { type: 100, fp: 'f1', dataContent: 'hi' } });
    await expect(received).resolves.toEqual({ kind: 'send', from: 'ta', message: { type: 100, fp: 'f1', dataContent: 'hi' } });
    a.close();
  });
});
