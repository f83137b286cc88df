/**
 * The admission service alone: an in-memory store, hub, sessions and tokens; no server, no socket.
 */
import { describe, expect, it } from 'vitest';
import type { Peer } from '../../src/chat/hub.js';
import type { WireMessage } from '../../src/chat/wire.js';
import { hashSecret } from '../../src/identity/secrets.js';
import type { Group, GroupMember, Visitor } from '../../src/store/types.js';
import { Admission, welcomeOf, type AdmissionDeps, type AdmissionStore } from '../../src/socket/admission.js';
import { IDENTITY_REFUSED } from '../../src/socket/close-codes.js';
import { ConnectRefused, type ConnectIdentity } from '../../src/socket/connect-check.js';

const NOW = 1_700_000_000_000;

class MemoryAdmissionStore implements AdmissionStore {
  readonly visitors = new Map<string, Visitor>();
  readonly bindings = new Map<string, string>();
  readonly claims = new Map<string, string>();
  readonly groups = new Map<string, Group>();
  readonly members: GroupMember[] = [];
  readonly chat = {
    visitor: async (clientId: string) => this.visitors.get(clientId),
    saveVisitor: async (visitor: Visitor) => void this.visitors.set(visitor.clientId, visitor),
  };
  readonly identity = {
    bindKeySession: async (saltKey: string, identity: string) => {
      const bound = this.bindings.get(saltKey);
      if (bound !== undefined) return bound === identity;
      this.bindings.set(saltKey, identity);
      return true;
    },
    claim: async (clientId: string, secretHash: string) => {
      if (this.claims.has(clientId)) return false;
      this.claims.set(clientId, secretHash);
      return true;
    },
  };
  readonly directory = {
    group: async (groupId: string) => this.groups.get(groupId),
    addMember: async (member: GroupMember) => void this.members.push(member),
  };
}

function visitorIdentity(over: Partial<ConnectIdentity> = {}): ConnectIdentity {
  return {
    role: 'visitor',
    userId: 'v1',
    name: 'Visitor v1',
    avatar: 'a.svg',
    mchId: 'M1',
    platformId: 'P1',
    language: 'en',
    groupId: '',
    keySession: { saltKey: 'salt-1', requestKey: 'r', aesKey: 'k', token: 't', createdAt: NOW, lastUsed: NOW, boundTo: null },
    connectId: 'v1',
    claimSecret: 'fresh-secret',
    ...over,
  };
}

function agentIdentity(login: ConnectIdentity['agentLogin']): ConnectIdentity {
  return visitorIdentity({ role: 'agent', userId: 'agent:alice', name: 'Alice', connectId: 'u-alice', claimSecret: undefined, agentLogin: login, mchId: '', platformId: '' });
}

function setUp(over: { connections?: number; agentOnline?: boolean } = {}) {
  const store = new MemoryAdmissionStore();
  const calls: string[] = [];
  const issued: string[] = [];
  const deps: AdmissionDeps = {
    store,
    hub: { connectionsOf: () => over.connections ?? 0, isAgentOnline: async () => over.agentOnline ?? false },
    agentTokens: {
      issue: async (account) => {
        issued.push(account);
        return `token-of-${account}`;
      },
    },
    agentPresence: { came: (id) => void calls.push(`came ${id}`) },
    sessions: {
      agentsChanged: () => void calls.push('agentsChanged'),
      snapshotFor: async (id) => ({ type: 300, from: 'system', to: id, dataContent: 'snapshot' }),
      hasAny: async () => calls.includes('start'),
      start: async (v) => {
        calls.push('start');
        return { sessionId: 's1', clientId: v.clientId, mchId: v.mchId, platformId: v.platformId, state: 'robot', agentId: null, createdAt: NOW, queuedAt: null, acceptedAt: null, endedAt: null, score: null, remark: null };
      },
      resumed: async () => void calls.push('resumed'),
      sendState: async () => void calls.push('sendState'),
    },
    socketsPerIdentity: 2,
    now: () => NOW,
  };
  return { store, calls, issued, admission: new Admission(deps) };
}

function fakePeer(sent: WireMessage[]): Peer {
  return { userId: 'v1', role: 'visitor', name: '', avatar: '', mchId: '', platformId: '', language: 'en', saltKey: 'salt-1', send: (m) => void sent.push(m), close: () => undefined };
}

describe('admission: too many connections', () => {
  it('refuses an identity that already has MAX_SOCKETS_PER_IDENTITY sockets, before touching the store', async () => {
    const { store, admission } = setUp({ connections: 2 });
    expect(await admission.admit(visitorIdentity())).toEqual({ kind: 'too-many' });
    expect(store.visitors.size).toBe(0);
    expect(store.bindings.size).toBe(0);
  });
});

describe('admission: the visitor is saved', () => {
  it('saves a new visitor, last seen now', async () => {
    const { store, admission } = setUp();
    await admission.admit(visitorIdentity());
    expect(store.visitors.get('v1')).toEqual({ clientId: 'v1', name: 'Visitor v1', avatar: 'a.svg', language: 'en', blacklisted: false, banned: false, createdAt: NOW, lastSeen: NOW });
  });

  it('keeps a known visitor’s flags and first-seen time', async () => {
    const { store, admission } = setUp();
    store.visitors.set('v1', { clientId: 'v1', name: 'old', avatar: 'old', language: 'zh', blacklisted: true, banned: false, createdAt: 5, lastSeen: 6 });
    await admission.admit(visitorIdentity());
    expect(store.visitors.get('v1')).toMatchObject({ name: 'Visitor v1', blacklisted: true, createdAt: 5, lastSeen: NOW });
  });
});

describe('admission: protocol §3a key-session binding and claim on first use', () => {
  it('binds the key session and claims the unseen id with the hash of the secret the welcome carries', async () => {
    const { store, admission } = setUp();
    const result = await admission.admit(visitorIdentity());
    expect(result.kind).toBe('admitted');
    expect(store.bindings.get('salt-1')).toBe('v1');
    expect(store.claims.get('v1')).toBe(hashSecret('fresh-secret'));
  });

  it('refuses with 4004 a key session bound to another identity', async () => {
    const { store, admission } = setUp();
    store.bindings.set('salt-1', 'someone-else');
    const refused = admission.admit(visitorIdentity());
    await expect(refused).rejects.toBeInstanceOf(ConnectRefused);
    await expect(refused).rejects.toMatchObject({ code: IDENTITY_REFUSED });
  });

  it('of two connects claiming one unseen id, the second is refused with 4004', async () => {
    const { admission } = setUp();
    const first = admission.admit(visitorIdentity());
    const second = admission.admit(visitorIdentity({ claimSecret: 'another-secret' }));
    await expect(first).resolves.toMatchObject({ kind: 'admitted' });
    await expect(second).rejects.toMatchObject({ code: IDENTITY_REFUSED });
  });
});

describe('admission: a banned visitor is refused', () => {
  it('answers banned and claims nothing', async () => {
    const { store, admission } = setUp();
    store.visitors.set('v1', { clientId: 'v1', name: 'x', avatar: 'x', language: 'en', blacklisted: false, banned: true, createdAt: 1, lastSeen: 1 });
    expect(await admission.admit(visitorIdentity())).toEqual({ kind: 'banned' });
    expect(store.claims.size).toBe(0);
    expect(store.visitors.get('v1')?.banned).toBe(true);
  });
});

describe('admission: agents', () => {
  it('issues a session token at a password login, once every check has passed', async () => {
    const { issued, admission } = setUp();
    const result = await admission.admit(agentIdentity({ by: 'password' }));
    expect(result).toEqual({ kind: 'admitted', agentWasOffline: true, agentToken: 'token-of-alice', issuedToken: 'token-of-alice' });
    expect(issued).toEqual(['alice']);
  });

  it('issues none at a token login, and keeps the token it logged in with', async () => {
    const { issued, admission } = setUp({ agentOnline: true });
    const result = await admission.admit(agentIdentity({ by: 'token', token: 'kept' }));
    expect(result).toEqual({ kind: 'admitted', agentWasOffline: false, agentToken: 'kept', issuedToken: undefined });
    expect(issued).toEqual([]);
  });

  it('issues no token when the key session is bound to another identity', async () => {
    const { store, issued, admission } = setUp();
    store.bindings.set('salt-1', 'v9');
    await expect(admission.admit(agentIdentity({ by: 'password' }))).rejects.toMatchObject({ code: IDENTITY_REFUSED });
    expect(issued).toEqual([]);
  });
});

describe('admission: the welcome', () => {
  it('carries role, user id, name, the claimed secret and an issued token', () => {
    const welcome = welcomeOf(visitorIdentity(), 'tok', NOW);
    expect(welcome).toMatchObject({ type: 60, from: 'system', to: 'v1', sm: NOW, createTime: NOW });
    expect(JSON.parse(String(welcome.dataContent))).toEqual({ role: 'visitor', userId: 'v1', name: 'Visitor v1', clientSecret: 'fresh-secret', sessionToken: 'tok' });
  });

  it('carries no secret for a known id', () => {
    expect(JSON.parse(String(welcomeOf(visitorIdentity({ claimSecret: undefined }), undefined, NOW).dataContent))).toEqual({ role: 'visitor', userId: 'v1', name: 'Visitor v1' });
  });
});

describe('admission: after the welcome', () => {
  it('an agent that was offline: presence, and the other agents hear of it', async () => {
    const { calls, admission } = setUp();
    const sent: WireMessage[] = [];
    await admission.started(fakePeer(sent), agentIdentity({ by: 'password' }), true);
    expect(calls).toEqual(['came agent:alice', 'agentsChanged']);
    expect(sent).toEqual([]);
  });

  it('an agent already online elsewhere gets its snapshot', async () => {
    const { calls, admission } = setUp();
    const sent: WireMessage[] = [];
    await admission.started(fakePeer(sent), agentIdentity({ by: 'password' }), false);
    expect(calls).toEqual(['came agent:alice']);
    expect(sent.map((m) => m.dataContent)).toEqual(['snapshot']);
  });

  it('a new visitor starts a session and hears its state; a returning one resumes', async () => {
    const { calls, admission } = setUp();
    await admission.started(fakePeer([]), visitorIdentity(), false);
    await admission.started(fakePeer([]), visitorIdentity(), false);
    expect(calls).toEqual(['start', 'sendState', 'resumed', 'sendState']);
  });

  it('a visitor that opened an open group joins it; a closed or unknown group is not joined', async () => {
    const { store, admission } = setUp();
    store.groups.set('g-open', { groupId: 'g-open', mchId: 'M1', name: 'Open', kind: 'group', avatar: '', notice: '', open: true });
    store.groups.set('g-closed', { groupId: 'g-closed', mchId: 'M1', name: 'Closed', kind: 'group', avatar: '', notice: '', open: false });
    for (const groupId of ['g-open', 'g-closed', 'g-unknown']) await admission.started(fakePeer([]), visitorIdentity({ groupId }), false);
    expect(store.members).toEqual([{ groupId: 'g-open', clientId: 'v1', name: 'Visitor v1', avatar: 'a.svg', role: 'member', joinedAt: NOW }]);
  });
});
