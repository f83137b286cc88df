/**
 * The connect check (protocol §3): `params` -> `{ A, B }` -> RSA-decrypt B to K -> GCM-decrypt A
 * to `{ d, u, t, s }` -> constant-time HMAC check of `s` -> `t` names a live key session -> the
 * role of docs/protocol.md §5. Any failure is a {@link ConnectRefused}; the crypto failures all
 * carry the same reason so that nothing tells which step failed. Key sessions, claims, platforms
 * and stored visitors are read through the services (their rules live there), never the store.
 * @module
 */

import type { AgentLogin } from '../agents/login.js';
import { DEFAULT_AGENT_AVATAR, DEFAULT_VISITOR_AVATAR, agentUserId, defaultVisitorName } from '../chat/context.js';
import { fromBase64, gcmDecrypt, hmacHex, safeEqual, type RsaPrivateKey } from '../crypto.js';
import { ApiError } from '../http/envelope.js';
import { newClientSecret } from '../identity/secrets.js';
import { parseArrival } from '../services/arrivals.js';
import type { ClaimCheck, Identity } from '../services/identity.js';
import { isMemberId, type Members } from '../services/members.js';
import { checkMember, type VerifiedConnect } from './member-check.js';
import type { Merchants } from '../services/merchants.js';
import type { Visitors } from '../services/visitors.js';
import type { KeySession } from '../store/types.js';
import { ConnectRefused, identityRefused } from './connect-refused.js';

export { CONNECT_REFUSED, IDENTITY_REFUSED } from './close-codes.js';
export { ConnectRefused, identityRefused } from './connect-refused.js';

/** Who connected. */
export interface ConnectIdentity {
  /** Visitor or agent. */
  role: 'visitor' | 'agent';
  /** Client id, or `agent:<account>`. */
  userId: string;
  /** Display name. */
  name: string;
  /** Avatar. */
  avatar: string;
  /** The visitor's merchant and platform (empty for agents). */
  mchId: string;
  /** See {@link ConnectIdentity.mchId}. */
  platformId: string;
  /** The visitor's language. */
  language: string;
  /** A group the visitor opened (`d.groupId`), or empty. */
  groupId: string;
  /** The key session named by `t`. */
  keySession: KeySession;
  /** The connect's `u` (for agents it differs from the user id). */
  connectId: string;
  /** A fresh secret when this connect claims an unseen client id (protocol §3a.1), else undefined. */
  claimSecret?: string;
  /** What a visitor arrived with (`d.entry`, parsed by `parseArrival`); absent for agents. */
  arrival?: Record<string, string>;
  /** An agent's login: by `password` (a session token is then issued) or by session `token`. */
  agentLogin?: { by: 'password' } | { by: 'token'; token: string };
  /** A verified member (protocol §3b): `userId` is its stable visitor id. */
  verified?: VerifiedConnect;
}

/** The service calls the check makes (a `Services` of `createServices` fits). */
export interface ConnectServices {
  /** Live key sessions and the claim check (protocol §3a). */
  readonly identity: Pick<Identity, 'live' | 'checkClaim' | 'isDeletedId'>;
  /** The visitor's platform: the first one for a visitor that names none; enabled, of a known merchant. */
  readonly merchants: Pick<Merchants, 'firstPlatform' | 'requirePlatform'>;
  /** A returning visitor's stored name, avatar and language. */
  readonly visitors: Pick<Visitors, 'find'>;
  /** Identity tokens and members (protocol §3b). */
  readonly members: Pick<Members, 'verify' | 'memberFor'>;
}

/** What the check needs. */
export interface ConnectDeps {
  /** The server's RSA private key. */
  rsa: RsaPrivateKey;
  /** The HMAC secret. */
  secret: string;
  /** The services. */
  services: ConnectServices;
  /** Agent logins (throttled). */
  agentLogin: AgentLogin;
  /** The peer's address (login throttling). */
  address: string;
}

const UNAUTHORIZED = 'unauthorized';
const CLIENT_ID = /^[A-Za-z0-9_.-]{1,128}$/;
const RESERVED = new Set(['robot', 'system']);

function object(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function text(value: unknown, max: number): string {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' ? value.trim().slice(0, max) : '';
}

/**
 * The HMAC message of protocol §3: the pairs sorted by key, string values as they are, others as
 * JSON, joined as `k=v&...`.
 * @internal
 */
export function signedText(payload: { d: unknown; t: unknown; u: unknown }): string {
  const value = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));
  return `d=${value(payload.d)}&t=${value(payload.t)}&u=${value(payload.u)}`;
}

/** An agent's connect data (`d` with `role: 'agent'`). */
export interface AgentConnectData {
  /** Always `agent`. */
  role: 'agent';
  /** The account (`d.account`, trimmed, at most 64 characters). */
  account: string;
  /** By session token when `d.token` is a string and no `d.password` is given; by password otherwise. */
  login: { by: 'password'; password: string } | { by: 'token'; token: string };
  /** `d.language` (at most 16 characters), or empty. */
  language: string;
}

/** A visitor's connect data (`d` without a role, or with `role: 'visitor'`). */
export interface VisitorConnectData {
  /** Always `visitor`. */
  role: 'visitor';
  /** `d.mchId` (at most 64 characters), or empty. */
  mchId: string;
  /** `d.platformId` (at most 64 characters), or empty. */
  platformId: string;
  /** `d.name` (at most 64 characters), or empty. */
  name: string;
  /** `d.language` (at most 16 characters; `null`, `0` and `no` count as none), or empty. */
  language: string;
  /** `d.groupId` (at most 64 characters; `null`, `0` and `data3` count as none), or empty. */
  groupId: string;
  /** `d.clientSecret` when it is a string (protocol §3a), else undefined. */
  clientSecret: string | undefined;
  /** `d.entry`: what the visitor arrived with (services/arrivals.ts), bounded; empty when absent. */
  arrival: Record<string, string>;
  /**
   * `d.identityToken` (protocol §3b): the token when a non-empty string, `null` when present but
   * not one (refused 4006 `invalid`), undefined when absent, empty or null.
   */
  identityToken: string | null | undefined;
}

/** The decrypted connect payload's `d`, parsed and validated once. */
export type ConnectData = AgentConnectData | VisitorConnectData;

/**
 * Parses the connect payload's `d` (an object; its HMAC already checked) into {@link ConnectData}.
 * @throws ConnectRefused `unknown role` for a role other than `agent` or `visitor`.
 */
export function parseConnectData(d: Record<string, unknown>): ConnectData {
  const role = d['role'];
  if (role === 'agent') {
    const token = d['token'];
    const password = d['password'];
    const login: AgentConnectData['login'] =
      typeof token === 'string' && password === undefined ? { by: 'token', token } : { by: 'password', password: typeof password === 'string' ? password.slice(0, 1024) : '' };
    return { role: 'agent', account: text(d['account'], 64), login, language: text(d['language'], 16) };
  }
  if (role !== undefined && role !== 'visitor') throw new ConnectRefused('unknown role');
  const clientSecret = d['clientSecret'];
  return {
    role: 'visitor',
    mchId: text(d['mchId'], 64),
    platformId: text(d['platformId'], 64),
    name: text(d['name'], 64),
    language: text(d['language'], 16).replace(/^(null|0|no)$/, ''),
    groupId: text(d['groupId'], 64).replace(/^(null|0|data3)$/, ''),
    clientSecret: typeof clientSecret === 'string' ? clientSecret : undefined,
    arrival: parseArrival(d['entry']),
    identityToken: identityTokenOf(d['identityToken']),
  };
}

function identityTokenOf(value: unknown): string | null | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  return typeof value === 'string' ? value : null;
}

function decodePayload(params: string, deps: ConnectDeps): { d: Record<string, unknown>; u: string; t: string } {
  if (params.length === 0 || params.length > 16_384) throw new ConnectRefused(UNAUTHORIZED);
  try {
    const outer = object(JSON.parse(fromBase64(params.replace(/ /g, '+')).toString('utf8')));
    if (!outer || typeof outer['A'] !== 'string' || typeof outer['B'] !== 'string') throw new Error('shape');
    const key = fromBase64(deps.rsa.decrypt(outer['B']));
    if (key.length !== 32) throw new Error('key');
    const payload = object(JSON.parse(gcmDecrypt(key, outer['A'])));
    if (!payload) throw new Error('payload');
    const { d, u, t, s } = payload;
    const data = object(d);
    if (!data || typeof u !== 'string' || typeof t !== 'string' || typeof s !== 'string') throw new Error('fields');
    if (!safeEqual(hmacHex(deps.secret, signedText({ d, t, u })), s.toLowerCase())) throw new Error('hmac');
    return { d: data, u, t };
  } catch {
    throw new ConnectRefused(UNAUTHORIZED);
  }
}

/**
 * Runs the whole check (an agent's password check runs scrypt off the event loop). Two connects
 * that claim one unseen id at once both pass here; the claim itself is a conditional update at
 * admission, so only one of them gets the id (the other is refused 4004).
 * @param params - the `params` query value, URL-decoded once.
 * @throws ConnectRefused on any failure (4001, or 4004 for a refused identity), as a rejection.
 */
export async function checkConnect(params: string, deps: ConnectDeps): Promise<ConnectIdentity> {
  const { d, u, t } = decodePayload(params, deps);
  const keySession = await deps.services.identity.live(t);
  if (!keySession) throw new ConnectRefused(UNAUTHORIZED);
  const data = parseConnectData(d);
  if (data.role === 'agent') return checkAgent(data, u, keySession, deps);
  return checkVisitor(data, u, keySession, deps);
}

async function checkAgent(d: AgentConnectData, u: string, keySession: KeySession, deps: ConnectDeps): Promise<ConnectIdentity> {
  const { login } = d;
  const result = login.by === 'token' ? await deps.agentLogin.loginWithToken(d.account, login.token, deps.address) : await deps.agentLogin.login(d.account, login.password, deps.address);
  if (!result.ok) throw new ConnectRefused(result.reason);
  const agent = result.agent;
  const userId = agentUserId(agent.account);
  if (keySession.boundTo !== null && keySession.boundTo !== userId) throw identityRefused();
  return {
    role: 'agent',
    userId,
    name: agent.name,
    avatar: DEFAULT_AGENT_AVATAR,
    mchId: '',
    platformId: '',
    language: d.language || 'zh',
    groupId: '',
    keySession,
    connectId: u,
    agentLogin: login.by === 'token' ? { by: 'token', token: login.token } : { by: 'password' },
  };
}

async function checkVisitor(d: VisitorConnectData, u: string, keySession: KeySession, deps: ConnectDeps): Promise<ConnectIdentity> {
  if (!CLIENT_ID.test(u) || RESERVED.has(u)) throw new ConnectRefused('bad client id');
  // a member id (protocol §3b) named without a valid token is forged; a deleted one is gone
  if (isMemberId(u) && (d.identityToken === undefined || (await deps.services.identity.isDeletedId(u)))) throw identityRefused();
  let claim: ClaimCheck | undefined;
  if (d.identityToken === undefined) {
    // protocol §3a: a key session speaks for one identity; a claimed id needs its secret
    if (keySession.boundTo !== null && keySession.boundTo !== u) throw identityRefused();
    claim = await deps.services.identity.checkClaim(u, d.clientSecret);
    if (claim === 'mismatch') throw identityRefused();
  }

  let { mchId, platformId } = d;
  if (mchId === '' && platformId === '') {
    const fallback = await deps.services.merchants.firstPlatform();
    mchId = fallback?.mchId ?? '';
    platformId = fallback?.platformId ?? '';
  }
  await deps.services.merchants.requirePlatform(mchId, platformId).catch((error: unknown) => {
    // 1003 on HTTP (unknown merchant or platform, or a disabled one) is a refused connect here
    throw error instanceof ApiError ? new ConnectRefused('unknown merchant') : error;
  });
  const verified = d.identityToken === undefined ? undefined : await checkMember(d.identityToken, d.clientSecret, u, mchId, keySession, deps.services);
  const userId = verified?.clientId ?? u;

  const known = await deps.services.visitors.find(userId);
  const language = d.language || known?.language || 'zh';
  const name = verified?.name || d.name || known?.name || defaultVisitorName(userId, language);
  return {
    role: 'visitor',
    userId,
    name,
    avatar: verified?.avatar || known?.avatar || DEFAULT_VISITOR_AVATAR,
    mchId,
    platformId,
    language,
    groupId: d.groupId,
    keySession,
    connectId: u,
    ...(claim === 'unclaimed' ? { claimSecret: newClientSecret() } : {}),
    ...(verified === undefined ? {} : { verified }),
    arrival: d.arrival,
  };
}
