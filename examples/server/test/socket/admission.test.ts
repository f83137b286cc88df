/**
 * The admission steps alone: fakes of the services (visitors, groups, identity), hub, sessions and
 * tokens; no server, no socket, no store. The rules the services own are tested with them
 * (test/services): the flags a save keeps, the claim's hash; the fakes below use the services'
 * own rule functions for the ban and for which groups may be joined.
 */
import { describe, expect, it } from 'vitest';
import type { Peer } from '../../src/chat/hub.js';
import type { WireMessage } from '../../src/chat/wire.js';
import { mayJoin, type Joiner } from '../../src/services/groups.js';
import { visitorRefusal, type ConnectingVisitor } from '../../src/services/visitors.js';
import type { Group, GroupMember, Visitor } from '../../src/store/types.js';
import { Admission, welcomeOf, type AdmissionDeps, type AdmissionServices } from '../../src/socket/admission.js';
import { IDENTITY_REFUSED } from '../../src/socket/close-codes.js';
import { ConnectRefused, type ConnectIdentity } from '../../src/socket/connect-check.js';

const NOW = 1_700_000_000_000;

/** Services that record what admission asks of them. */
class FakeServices implements AdmissionServices {
  /** Every service call, in order. */
  readonly calls: string[] = [];
  /** The visitors saved on connect. */
  readonly saved: ConnectingVisitor[] = [];
  /** Stored visitor flags (a save keeps them: that rule is the visitor service's). */
  readonly flags = new Map<string, Pick<Visitor, 'banned' | 'blacklisted'>>();
  /** Key-session bindings: salt key -> identity. */
  readonly bindings = new Map<string, string>();
  /** Claims: client id -> the secret it was claimed with (the service stores its hash). */
  readonly claims = new Map<string, string>();
  /** Stored groups. */
  readonly groupRows = new Map<string, Group>();
  /** Memberships made. */
  readonly memberships: GroupMember[] = [];

  readonly visitors = {
    saveOnConnect: async (visitor: ConnectingVisitor): Promise<Visitor> => {
      this.calls.push(`save ${visitor.clientId}`);
      this.saved.push(visitor);
      const flags = this.flags.get(visitor.clientId) ?? { banned: false, blacklisted: false };
      return { ...visitor, ...flags, createdAt: NOW, lastSeen: NOW };
    },
    isBanned: async (clientId: string): Promise<boolean> => {
      this.calls.push(`isBanned ${clientId}`);
      return visitorRefusal(this.flags.get(clientId), 'use') === 'banned';
    },
  };

  readonly identity = {
    bind: async (saltKey: string, identity: string): Promise<boolean> => {
      this.calls.push(`bind ${saltKey}`);
      const bound = this.bindings.get(saltKey);
      if (bound !== undefined) return bound === identity;
      this.bindings.set(saltKey, identity);
      return true;
    },
    claim: async (clientId: string, secret: string): Promise<boolean> => {
      this.calls.push(`claim ${clientId}`);
      if (this.claims.has(clientId)) return false;
      this.claims.set(clientId, secret);
      return true;
    },
  };

  /** Merges of protocol §3b.4 (the fake moves the key session's binding to the member, like the store). */
  readonly members = {
    merge: async (from: string, into: string, keepSaltKey: string): Promise<Record<string, number>> => {
      this.calls.push(`merge ${from} -> ${into} keeping ${keepSaltKey}`);
      if (this.bindings.get(keepSaltKey) === from) this.bindings.set(keepSaltKey, into);
      return {};
    },
  };

  readonly groups = {
    joinOpenGroup: async (groupId: string, joiner: Joiner): Promise<GroupMember | undefined> => {
      this.calls.push(`join ${groupId}`);
      const group = this.groupRows.get(groupId);
      if (!group || !mayJoin(group)) return undefined;
      const member: GroupMember = { groupId, ...joiner, role: 'member', joinedAt: NOW };
      this.memberships.push(member);
      return member;
    },
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
  const services = new FakeServices();
  const calls: string[] = [];
  const issued: string[] = [];
  const deps: AdmissionDeps = {
    services,
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
  };
  return { services, calls, issued, admission: new Admission(deps) };
}

function fakePeer(sent: WireMessage[]): Peer {
  return { userId: 'v1', role: 'visitor', name: '', avatar: '', mchId: '', platformId: '', language: 'en', saltKey: 'salt-1', send: (m) => void sent.push(m), close: () => undefined };
}

describe('admission: too many connections', () => {
  it('refuses an identity that already has MAX_SOCKETS_PER_IDENTITY sockets, before calling any service', async () => {
    const { services, admission } = setUp({ connections: 2 });
    expect(await admission.admit(visitorIdentity())).toEqual({ kind: 'too-many' });
    expect(services.calls).toEqual([]);
    expect(services.bindings.size).toBe(0);
  });
});

describe('admission: the visitor is saved', () => {
  it('saves a visitor through the visitor service with its connect\'s name, avatar and language, before the binding', async () => {
    const { services, admission } = setUp();
    await admission.admit(visitorIdentity());
    expect(services.saved).toEqual([{ clientId: 'v1', name: 'Visitor v1', avatar: 'a.svg', language: 'en' }]);
    expect(services.calls).toEqual(['save v1', 'bind salt-1', 'isBanned v1', 'claim v1']);
  });

  it('saves no agent and asks no ban of it', async () => {
    const { services, admission } = setUp();
    await admission.admit(agentIdentity({ by: 'password' }));
    expect(services.saved).toEqual([]);
    expect(services.calls).toEqual(['bind salt-1']);
  });
});

describe('admission: protocol §3a key-session binding and claim on first use', () => {
  it('binds the key session and claims the unseen id with the secret the welcome carries (the service stores its hash)', async () => {
    const { services, admission } = setUp();
    const result = await admission.admit(visitorIdentity());
    expect(result.kind).toBe('admitted');
    expect(services.bindings.get('salt-1')).toBe('v1');
    expect(services.claims.get('v1')).toBe('fresh-secret');
  });

  it('claims nothing for a known id (no secret to hand out)', async () => {
    const { services, admission } = setUp();
    expect(await admission.admit(visitorIdentity({ claimSecret: undefined }))).toMatchObject({ kind: 'admitted' });
    expect(services.claims.size).toBe(0);
  });

  it('refuses with 4004 a key session bound to another identity', async () => {
    const { services, admission } = setUp();
    services.bindings.set('salt-1', 'someone-else');
    const refused = admission.admit(visitorIdentity());
    await expect(refused).rejects.toBeInstanceOf(ConnectRefused);
    await expect(refused).rejects.toMatchObject({ code: IDENTITY_REFUSED });
    expect(services.claims.size).toBe(0);
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
    const { services, admission } = setUp();
    services.flags.set('v1', { blacklisted: false, banned: true });
    expect(await admission.admit(visitorIdentity())).toEqual({ kind: 'banned' });
    expect(services.claims.size).toBe(0);
    expect(services.calls).toEqual(['save v1', 'bind salt-1', 'isBanned v1']);
  });

  it('a blacklisted visitor is admitted (it may connect and read)', async () => {
    const { services, admission } = setUp();
    services.flags.set('v1', { blacklisted: true, banned: false });
    expect(await admission.admit(visitorIdentity())).toMatchObject({ kind: 'admitted' });
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
    const { services, issued, admission } = setUp();
    services.bindings.set('salt-1', 'v9');
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
    const { services, admission } = setUp();
    services.groupRows.set('g-open', { groupId: 'g-open', mchId: 'M1', name: 'Open', kind: 'group', avatar: '', notice: '', open: true });
    services.groupRows.set('g-closed', { groupId: 'g-closed', mchId: 'M1', name: 'Closed', kind: 'group', avatar: '', notice: '', open: false });
    for (const groupId of ['g-open', 'g-closed', 'g-unknown']) await admission.started(fakePeer([]), visitorIdentity({ groupId }), false);
    expect(services.memberships).toEqual([{ groupId: 'g-open', clientId: 'v1', name: 'Visitor v1', avatar: 'a.svg', role: 'member', joinedAt: NOW }]);
  });

  it('a visitor without a group asks to join none', async () => {
    const { services, admission } = setUp();
    await admission.started(fakePeer([]), visitorIdentity(), false);
    expect(services.calls).toEqual([]);
  });
});

describe('admission: protocol §3b verified members', () => {
  const member = (mergeFrom: string | undefined): ConnectIdentity =>
    visitorIdentity({ userId: 'vm-1', connectId: 'anon-1', claimSecret: undefined, verified: { clientId: 'vm-1', sub: 'ann', name: 'Ann', avatar: undefined, mergeFrom } });

  it('merges the proven anonymous id before binding, so its key session then speaks for the member', async () => {
    const { services, admission } = setUp();
    services.bindings.set('salt-1', 'anon-1');
    expect(await admission.admit(member('anon-1'))).toMatchObject({ kind: 'admitted' });
    expect(services.calls).toEqual(['save vm-1', 'merge anon-1 -> vm-1 keeping salt-1', 'bind salt-1', 'isBanned vm-1']);
    expect(services.bindings.get('salt-1')).toBe('vm-1');
    expect(services.claims.size).toBe(0);
  });

  it('merges nothing without a proven anonymous id; the welcome says verified and carries no secret', async () => {
    const { services, admission } = setUp();
    await admission.admit(member(undefined));
    expect(services.calls.some((c) => c.startsWith('merge'))).toBe(false);
    const welcome = welcomeOf(member(undefined), undefined, NOW);
    expect(welcome.to).toBe('vm-1');
    expect(JSON.parse(String(welcome.dataContent))).toEqual({ role: 'visitor', userId: 'vm-1', name: 'Visitor v1', verified: true });
  });
});
