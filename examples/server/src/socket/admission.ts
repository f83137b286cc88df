/**
 * Admission: what happens to a connect that passed the check ({@link checkConnect}) before and
 * right after its welcome. The visitor is saved, the key session bound to the identity (protocol
 * §3a), a banned visitor refused, an unseen client id claimed, an agent's session token issued,
 * and an identity with too many sockets refused. After the welcome, the session starts: an
 * agent's presence and snapshot, a visitor's group, session and state.
 *
 * The rules themselves live in the services (the ban in {@link Visitors}, joining in
 * {@link Groups}, binding and claims in {@link Identity}); admission only orders the steps. The
 * services, hub, sessions and tokens are injected, so every step here is tested without a server.
 * @module
 */

import { randomUUID } from 'node:crypto';
import type { Hub, Peer } from '../chat/hub.js';
import type { Sessions } from '../chat/sessions.js';
import { T, type WireMessage } from '../chat/wire.js';
import type { AgentPresence } from '../agents/presence.js';
import type { AgentTokens } from '../agents/session-tokens.js';
import type { Arrivals } from '../services/arrivals.js';
import type { Groups } from '../services/groups.js';
import type { Identity } from '../services/identity.js';
import type { Members } from '../services/members.js';
import type { Visitors } from '../services/visitors.js';
import { identityRefused, type ConnectIdentity } from './connect-check.js';

/** The service calls admission makes (a `Services` of `createServices` fits). */
export interface AdmissionServices {
  /** The visitor upsert on connect, and the ban. */
  readonly visitors: Pick<Visitors, 'saveOnConnect' | 'isBanned'>;
  /** Joining the open group a visitor opened. */
  readonly groups: Pick<Groups, 'joinOpenGroup'>;
  /** Key-session binding and claims (protocol §3a). */
  readonly identity: Pick<Identity, 'bind' | 'claim'>;
  /** The merge of an anonymous visitor into a verified member (protocol §3b.4; optional: admission tests may leave it out). */
  readonly members?: Pick<Members, 'merge'>;
  /** What a visitor arrived with, kept for the desk (optional: admission tests may leave it out). */
  readonly arrivals?: Pick<Arrivals, 'record'>;
}

/** What admission needs. */
export interface AdmissionDeps {
  /** The services. */
  services: AdmissionServices;
  /** Who is connected (this node, or the cluster for agents). */
  hub: Pick<Hub, 'connectionsOf' | 'isAgentOnline'>;
  /** Agent session tokens (issued at a password login). */
  agentTokens: Pick<AgentTokens, 'issue'>;
  /** Agents within their grace period. */
  agentPresence: Pick<AgentPresence, 'came'>;
  /** Sessions: start, resume, state, the agents' snapshot. */
  sessions: Pick<Sessions, 'agentsChanged' | 'snapshotFor' | 'hasAny' | 'start' | 'resumed' | 'sendState'>;
  /** At most this many sockets per identity (`MAX_SOCKETS_PER_IDENTITY`). */
  socketsPerIdentity: number;
}

/** The outcome of {@link Admission.admit}. */
export type AdmissionResult =
  | {
      /** Admitted: welcome it. */
      readonly kind: 'admitted';
      /** The agent was online nowhere before this socket (the other agents hear of it). */
      readonly agentWasOffline: boolean;
      /** The agent's session token of this connection (issued now, or the one it logged in with). */
      readonly agentToken: string | undefined;
      /** A token issued by this connect's password login: the welcome carries it. */
      readonly issuedToken: string | undefined;
    }
  /** The identity has too many sockets open: close with 4005, never welcomed. */
  | { readonly kind: 'too-many' }
  /** A banned visitor: refuse (type 500 `banned`) and close with 4003; nothing is claimed. */
  | { readonly kind: 'banned' };

/** The welcome (type 60) of an admitted connect: role, user id, name, and a new secret or token. */
export function welcomeOf(identity: ConnectIdentity, issuedToken: string | undefined, now: number): WireMessage {
  return {
    type: T.Welcome,
    from: 'system',
    to: identity.userId,
    fp: randomUUID(),
    sm: now,
    createTime: now,
    dataContent: JSON.stringify({
      role: identity.role,
      userId: identity.userId,
      name: identity.name,
      ...(identity.claimSecret === undefined ? {} : { clientSecret: identity.claimSecret }),
      ...(identity.verified === undefined ? {} : { verified: true }),
      ...(issuedToken === undefined ? {} : { sessionToken: issuedToken }),
    }),
  };
}

/** Admits checked connects (see the module comment). */
export class Admission {
  /** @param deps - services, hub, sessions and tokens */
  constructor(private readonly deps: AdmissionDeps) {}

  /**
   * Admits a checked connect: too many sockets, visitor save, a verified member's merge, key-session binding, ban, claim on
   * first use (the hash is stored before the welcome carries the secret; of two connects claiming
   * one unseen id at once, the conditional update lets one through), then an agent's token.
   * @throws ConnectRefused 4004 when the key session is bound to another identity or the claim was lost.
   */
  async admit(identity: ConnectIdentity): Promise<AdmissionResult> {
    const { services, hub } = this.deps;
    if (hub.connectionsOf(identity.userId) >= this.deps.socketsPerIdentity) return { kind: 'too-many' };
    const isVisitor = identity.role === 'visitor';
    if (isVisitor) await services.visitors.saveOnConnect({ clientId: identity.userId, name: identity.name, avatar: identity.avatar, language: identity.language });
    // protocol §3b.4: the proven anonymous conversation joins the member's (this key session moves with it)
    const mergeFrom = identity.verified?.mergeFrom;
    if (mergeFrom !== undefined) await services.members?.merge(mergeFrom, identity.userId, identity.keySession.saltKey);
    if (!(await services.identity.bind(identity.keySession.saltKey, identity.userId))) throw identityRefused();
    // the identity checks passed, so its calls answer 2003 (banned), not 4003; nothing is claimed
    if (isVisitor && (await services.visitors.isBanned(identity.userId))) return { kind: 'banned' };
    if (identity.claimSecret !== undefined && !(await services.identity.claim(identity.userId, identity.claimSecret))) throw identityRefused();
    const agentWasOffline = identity.role === 'agent' && !(await hub.isAgentOnline(identity.userId));
    // a password login gets a session token once every check has passed (none is left unused)
    const login = identity.agentLogin;
    const issuedToken = login?.by === 'password' ? await this.deps.agentTokens.issue(identity.userId.slice('agent:'.length)) : undefined;
    const agentToken = login?.by === 'token' ? login.token : issuedToken;
    return { kind: 'admitted', agentWasOffline, agentToken, issuedToken };
  }

  /**
   * After the welcome (it runs before any frame of the socket: a text must find its session): an
   * agent's presence and snapshot; a visitor's group (or what it arrived with), its session
   * started or resumed, and its service state (robot, queued, agent, ended) for a reloaded page or a new tab.
   */
  async started(peer: Peer, identity: ConnectIdentity, agentWasOffline: boolean): Promise<void> {
    const { sessions } = this.deps;
    if (identity.role === 'agent') {
      this.deps.agentPresence.came(identity.userId);
      if (agentWasOffline) sessions.agentsChanged();
      else peer.send(await sessions.snapshotFor(identity.userId));
      return;
    }
    const v = { clientId: identity.userId, name: identity.name, avatar: identity.avatar, mchId: identity.mchId, platformId: identity.platformId, language: identity.language };
    if (identity.groupId !== '') await this.deps.services.groups.joinOpenGroup(identity.groupId, { clientId: identity.userId, name: identity.name, avatar: identity.avatar });
    else if (identity.arrival) await this.deps.services.arrivals?.record(identity.userId, identity.mchId, identity.platformId, identity.arrival);
    if (!(await sessions.hasAny(v))) await sessions.start(v);
    else await sessions.resumed(v, (message) => peer.send(message));
    if (identity.groupId === '') await sessions.sendState(peer);
  }
}
