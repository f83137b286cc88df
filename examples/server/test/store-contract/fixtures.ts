/**
 * Records for the store contract cases: complete values with defaults, overridable per case.
 * @module
 */

import type { MessageRecord, ServiceSession, Visitor } from '../../src/store/types.js';

/** The merchant and platform the cases use. */
export const MCH = 'mch-1';
/** The platform the cases use. */
export const PLATFORM = 'web';
/** A base time (ms) that needs BIGINT. */
export const T0 = 1_760_000_000_000;

/** A visitor seen at {@link T0}. */
export function visitor(clientId: string, overrides: Partial<Visitor> = {}): Visitor {
  return { clientId, name: `name ${clientId}`, avatar: '', language: 'en', blacklisted: false, banned: false, createdAt: T0, lastSeen: T0, ...overrides };
}

/** A service session of `clientId` (robot state unless overridden). */
export function session(sessionId: string, clientId: string, overrides: Partial<ServiceSession> = {}): ServiceSession {
  return {
    sessionId,
    clientId,
    mchId: MCH,
    platformId: PLATFORM,
    state: 'robot',
    agentId: null,
    createdAt: T0,
    queuedAt: null,
    acceptedAt: null,
    endedAt: null,
    score: null,
    remark: null,
    endedBy: null,
    ...overrides,
  };
}

/** A one-to-one message of `clientId`'s conversation at `createTime`. */
export function message(fp: string, clientId: string, createTime: number, overrides: Partial<MessageRecord> = {}): MessageRecord {
  return {
    fp,
    type: 1,
    from: clientId,
    to: 'agent:alice',
    fn: 'visitor',
    tn: 'Alice',
    fa: '',
    ta: '',
    mchId: MCH,
    platformId: PLATFORM,
    clientId,
    groupId: null,
    sessionId: null,
    dataContent: `text ${fp}`,
    isRead: 0,
    robot: 0,
    isGroup: 0,
    createTime,
    cm: null,
    ...overrides,
  };
}

/** A message of group `groupId` at `createTime`. */
export function groupMessage(fp: string, groupId: string, createTime: number): MessageRecord {
  return message(fp, 'sender', createTime, { clientId: null, groupId, to: groupId, isGroup: 1 });
}

/** The fps of some messages, in order. */
export const fps = (messages: readonly MessageRecord[]): string[] => messages.map((m) => m.fp);
