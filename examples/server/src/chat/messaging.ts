/**
 * What the server does with each client frame: content messages (acknowledged, stored once per
 * fp, forwarded), group and channel messages, receipts (104), typing signals (105, relayed by the
 * typing service and nothing else), a visitor's language (106), transfer (301), end (302) and the
 * agent's accept (311).
 * Refusals are type 500.
 * @module
 */

import type { Services } from '../services/index.js';
import type { MessageRecord, ServiceSession } from '../store/types.js';
import { ackOf, agentMerchants, merchantAgentsOnline, refuse, ROBOT_ID, SYSTEM_ID, visitorOf, type ChatContext } from './context.js';
import type { DeskControls } from './desk-controls.js';
import type { Peer } from './hub.js';
import { groupViewFor } from './group-view.js';
import type { Sessions } from './sessions.js';
import { VisitorLanguage } from './visitor-language.js';
import { CONTENT_TYPES, T, toWire, type WireMessage } from './wire.js';

/** A frame from a client after decoding: a JSON object with a numeric type; every other field unchecked. */
export interface ClientFrame {
  /** The message type. */
  type: number;
  /** Unchecked fields. */
  [key: string]: unknown;
}

/**
 * Decides whether a connection may send now: the socket rate limit, counted per identity and per
 * key session (so that speaking for many ids from one key session does not multiply it).
 */
export type RateCheck = (peer: Peer) => boolean | Promise<boolean>;

const FP = /^[A-Za-z0-9_.:-]{8,100}$/;

/** Whether `fp` is usable as a message identity. */
export function validFp(fp: unknown): fp is string {
  return typeof fp === 'string' && FP.test(fp);
}

function blank(type: number, content: string): boolean | 'bad' {
  if (type === T.Text || type === T.Image) return content.trim() === '';
  try {
    const parsed: unknown = JSON.parse(content);
    if (typeof parsed !== 'object' || parsed === null) return 'bad';
    const url = (parsed as { url?: unknown }).url;
    return typeof url !== 'string' || url.trim() === '';
  } catch {
    return 'bad';
  }
}

/** Whether the frame's `from` (when given) is the connection's own identity. */
function sentBySelf(peer: Peer, frame: ClientFrame): boolean {
  const from = frame.from;
  if (from === undefined || from === null || from === '') return true;
  return from === peer.userId || (peer.connectId !== undefined && from === peer.connectId);
}

function isGroupFrame(frame: ClientFrame): boolean {
  return frame.isGroup === 1 || frame.isGroup === true || frame.isGroup === '1';
}

/** Handles decoded client frames. */
export class Messaging {
  /** A visitor's change of language (106). */
  private readonly language: VisitorLanguage;

  constructor(
    private readonly ctx: ChatContext,
    private readonly sessions: Sessions,
    private readonly allowSend: RateCheck,
    private readonly rules: Pick<Services, 'visitors' | 'groups' | 'typing'>,
    private readonly desk?: DeskControls,
  ) {
    this.language = new VisitorLanguage(sessions, rules.visitors, allowSend);
  }

  /**
   * Dispatches one frame (the heartbeat is answered by the socket layer). A frame whose `from`
   * names anyone but the connection's own identity (protocol §3a) is refused `not-allowed` and
   * nothing is stored (a receipt or a typing signal is dropped silently).
   */
  async handle(peer: Peer, frame: ClientFrame): Promise<void> {
    const type = frame.type;
    if (!sentBySelf(peer, frame)) {
      if (type !== T.Receipt && type !== T.Typing) refuse(peer, 'not-allowed', typeof frame.fp === 'string' ? frame.fp : '');
      return;
    }
    if (type === T.Typing) return this.typing(peer, frame);
    if (type === T.Language) return this.language.handle(peer, frame);
    if (type === T.Receipt) return this.receipt(peer, frame);
    if (CONTENT_TYPES.has(type)) return this.content(peer, frame);
    if (type === T.Transfer || type === T.End) return this.control(peer, frame);
    if (type === T.AgentAccept) return this.accept(peer, frame);
    if (type === T.AgentStatus && this.desk) return this.desk.setStatus(peer, frame);
    if (type === T.AgentTransfer && this.desk) return this.desk.transfer(peer, frame);
    refuse(peer, 'bad-frame', typeof frame.fp === 'string' ? frame.fp : '');
  }

  /** Checks shared by content and control messages; returns the stored duplicate when it is a resend. */
  private async gate(peer: Peer, frame: ClientFrame, content: boolean): Promise<{ ok: true } | { ok: false } | { resend: MessageRecord }> {
    const fp = frame.fp;
    if (!validFp(fp) || typeof frame.dataContent !== 'string') {
      refuse(peer, 'bad-frame', typeof fp === 'string' ? fp : '');
      return { ok: false };
    }
    const known = await this.ctx.store.chat.message(fp);
    if (known) {
      if (known.from === peer.userId && known.type === frame.type) return { resend: known };
      refuse(peer, 'bad-frame', fp);
      return { ok: false };
    }
    if (peer.role === 'visitor') {
      const refusal = await this.rules.visitors.refusal(peer.userId, 'send');
      if (refusal !== undefined) {
        refuse(peer, refusal, fp);
        return { ok: false };
      }
    }
    if (content) {
      const isBlank = blank(frame.type, frame.dataContent);
      if (isBlank === 'bad') {
        refuse(peer, 'bad-frame', fp);
        return { ok: false };
      }
      if (isBlank) {
        refuse(peer, 'blank', fp);
        return { ok: false };
      }
    }
    if ((content || frame.type === T.Transfer) && !(await this.allowSend(peer))) {
      refuse(peer, 'too-frequent', fp);
      return { ok: false };
    }
    return { ok: true };
  }

  private async content(peer: Peer, frame: ClientFrame): Promise<void> {
    const gate = await this.gate(peer, frame, true);
    if ('resend' in gate) {
      await this.resent(peer, gate.resend);
      return;
    }
    if (!gate.ok) return;
    if (isGroupFrame(frame)) return this.groupContent(peer, frame);
    if (peer.role === 'agent') return this.agentContent(peer, frame);
    const v = visitorOf(peer);
    const session = await this.sessions.ensureOpen(v);
    const to = session.state === 'active' && session.agentId ? session.agentId : session.state === 'robot' ? ROBOT_ID : '';
    const record = this.record(peer, frame, { to, clientId: v.clientId, mchId: v.mchId, platformId: v.platformId, sessionId: session.sessionId });
    // The robot reads (and answers) a text at once, like a question asked from the list.
    if (session.state === 'robot' && frame.type === T.Text) record.isRead = 1;
    await this.ctx.store.chat.insertMessage(record);
    this.ctx.hub.sendTo(peer.userId, ackOf(record));
    if (session.state === 'active' && session.agentId) {
      this.ctx.hub.sendTo(session.agentId, toWire(record));
    } else if (session.state === 'robot' && frame.type === T.Text) {
      await this.sessions.robotReply(v, session, record.dataContent);
    }
  }

  private async agentContent(peer: Peer, frame: ClientFrame): Promise<void> {
    const clientId = typeof frame.to === 'string' ? frame.to : '';
    const session = await this.servedSession(peer, clientId);
    if (!session) {
      refuse(peer, 'not-allowed', String(frame.fp));
      return;
    }
    const visitor = await this.ctx.store.chat.visitor(clientId);
    const record = this.record(peer, frame, {
      to: clientId,
      tn: visitor?.name ?? '',
      ta: visitor?.avatar ?? '',
      clientId,
      mchId: session.mchId,
      platformId: session.platformId,
      sessionId: session.sessionId,
    });
    await this.ctx.store.chat.insertMessage(record);
    this.ctx.hub.sendTo(peer.userId, ackOf(record));
    this.ctx.hub.sendTo(clientId, toWire(record));
  }

  private async groupContent(peer: Peer, frame: ClientFrame): Promise<void> {
    const groupId = typeof frame.to === 'string' ? frame.to : '';
    const group = await this.rules.groups.find(groupId);
    const fp = String(frame.fp);
    if (!group) {
      refuse(peer, 'not-allowed', fp);
      return;
    }
    // a visitor joins an open group with its first message; an agent is staff in its merchants' groups
    const member = peer.role === 'visitor'
      ? await this.rules.groups.join(group, { clientId: peer.userId, name: peer.name, avatar: peer.avatar })
      : await this.rules.groups.member(groupId, peer.userId);
    const staff = peer.role === 'agent' ? (await agentMerchants(this.ctx, peer.userId)).includes(group.mchId) : member?.role === 'staff';
    if (!member && !staff) {
      refuse(peer, 'not-allowed', fp);
      return;
    }
    if (group.kind === 'channel' && !staff) {
      refuse(peer, 'not-allowed', fp);
      return;
    }
    const record = this.record(peer, frame, {
      to: groupId,
      tn: group.name,
      ta: group.avatar,
      clientId: null,
      groupId,
      mchId: group.mchId,
      platformId: '',
      sessionId: null,
    });
    await this.ctx.store.chat.insertMessage(record);
    const wire = toWire(record, []);
    this.ctx.hub.sendTo(peer.userId, wire);
    await this.toGroup(record, wire);
  }

  /** Sends a group message to the members and the online agents of the group's merchant, but not its sender. */
  private async toGroup(record: MessageRecord, wire: WireMessage): Promise<void> {
    const groupId = record.groupId ?? '';
    const recipients = new Set((await this.ctx.store.directory.members(groupId)).map((m) => m.clientId));
    for (const agentId of await merchantAgentsOnline(this.ctx, record.mchId)) recipients.add(agentId);
    recipients.delete(record.from);
    for (const userId of recipients) this.ctx.hub.sendTo(userId, groupViewFor(wire, userId, this.ctx.groupAlias));
  }

  /**
   * A content message sent again (its acknowledgement was lost): acknowledged again. In a cluster
   * it is also delivered again: the node that stored it may have died before delivering it, while
   * the receiver's socket lives on on another node, so no reconnect gap-fill would bring it
   * (receivers keep one copy per fp). A node alone delivers right after storing, in the same
   * turn: if it died in between, the receiver's socket died with it and gap-fill brings the message.
   */
  private async resent(peer: Peer, record: MessageRecord): Promise<void> {
    peer.send(await this.wireOf(record));
    if (!this.ctx.hub.clustered) return;
    if (record.isGroup === 1) await this.toGroup(record, toWire(record, []));
    else if (record.to !== ROBOT_ID && record.to !== SYSTEM_ID && record.to !== '') this.ctx.hub.sendTo(record.to, toWire(record));
  }

  private async control(peer: Peer, frame: ClientFrame): Promise<void> {
    const gate = await this.gate(peer, { ...frame, dataContent: typeof frame.dataContent === 'string' ? frame.dataContent : '{}' }, false);
    if ('resend' in gate) {
      peer.send(await this.wireOf(gate.resend));
      return;
    }
    if (!gate.ok) return;
    if (peer.role === 'agent') {
      const clientId = typeof frame.to === 'string' ? frame.to : '';
      const session = await this.servedSession(peer, clientId);
      if (frame.type !== T.End || !session) {
        refuse(peer, 'not-allowed', String(frame.fp));
        return;
      }
      const record = this.record(peer, frame, { to: clientId, clientId, mchId: session.mchId, platformId: session.platformId, sessionId: session.sessionId });
      await this.ctx.store.chat.insertMessage(record);
      this.ctx.hub.sendTo(peer.userId, ackOf(record));
      await this.sessions.end(session, 'agent');
      return;
    }
    const v = visitorOf(peer);
    const open = await this.sessions.open(v);
    const record = this.record(peer, frame, {
      to: SYSTEM_ID,
      clientId: v.clientId,
      mchId: v.mchId,
      platformId: v.platformId,
      sessionId: open?.sessionId ?? null,
    });
    await this.ctx.store.chat.insertMessage(record);
    this.ctx.hub.sendTo(peer.userId, ackOf(record));
    if (frame.type === T.Transfer) await this.sessions.transfer(v);
    else if (open) await this.sessions.end(open, 'visitor');
  }

  private async accept(peer: Peer, frame: ClientFrame): Promise<void> {
    const fp = typeof frame.fp === 'string' ? frame.fp : '';
    if (peer.role !== 'agent') {
      refuse(peer, 'not-allowed', fp);
      return;
    }
    let clientId = '';
    try {
      const parsed: unknown = JSON.parse(typeof frame.dataContent === 'string' ? frame.dataContent : '');
      const value = (parsed as { clientId?: unknown } | null)?.clientId;
      if (typeof value === 'string') clientId = value;
    } catch {
      // handled below
    }
    if (clientId === '' || !(await this.sessions.accept(peer.userId, clientId))) refuse(peer, 'not-allowed', fp);
  }

  /** The agent's active conversation with `clientId`, when it is one of the agent's merchants. */
  private async servedSession(peer: Peer, clientId: string): Promise<ServiceSession | undefined> {
    const session = await this.ctx.store.chat.activeSessionWith(peer.userId, clientId);
    return session && (await agentMerchants(this.ctx, peer.userId)).includes(session.mchId) ? session : undefined;
  }

  /** Type 105: relayed to the other party of the conversation as the typing service decides; never stored, never acknowledged. */
  private async typing(peer: Peer, frame: ClientFrame): Promise<void> {
    const delivery = await this.rules.typing.relay(peer, frame);
    if (delivery) this.ctx.hub.sendTo(delivery.to, delivery.message);
  }

  /** Type 104: marks the read message, stores the receipt once, forwards it to the original sender. */
  private async receipt(peer: Peer, frame: ClientFrame): Promise<void> {
    if (!validFp(frame.fp) || typeof frame.dataContent !== 'string') return;
    const read = await this.ctx.store.chat.message(frame.dataContent);
    if (!read || read.type === T.Receipt || read.from === peer.userId) return;
    const now = this.ctx.clock.next();
    if (read.isGroup === 1 && read.groupId) {
      const allowed = peer.role === 'agent' ? (await agentMerchants(this.ctx, peer.userId)).includes(read.mchId) : await this.rules.groups.isMember(read.groupId, peer.userId);
      if (!allowed || !(await this.ctx.store.chat.addGroupRead(read.fp, peer.userId, now))) return;
    } else {
      const mine =
        (peer.role === 'visitor' && read.clientId === peer.userId) ||
        (peer.role === 'agent' && read.clientId !== null && read.from === read.clientId &&
          (await this.ctx.store.chat.latestSession(read.clientId, read.mchId, read.platformId))?.agentId === peer.userId);
      if (!mine) return;
      await this.ctx.store.chat.markRead(read.fp);
    }
    const record: MessageRecord = {
      ...this.record(peer, frame, {
        to: read.from,
        tn: read.fn,
        ta: read.fa,
        clientId: read.clientId,
        groupId: read.groupId,
        mchId: read.mchId,
        platformId: read.platformId,
        sessionId: read.sessionId,
      }),
      dataContent: read.fp,
      isGroup: read.isGroup,
      cm: read.createTime,
      createTime: now,
    };
    if (!(await this.ctx.store.chat.insertMessage(record))) return;
    if (read.from !== ROBOT_ID && read.from !== SYSTEM_ID) {
      const wire = toWire(record);
      // a group receipt tells the sender who read it only by the reader's alias
      if (read.isGroup === 1 && read.groupId) wire.from = this.ctx.groupAlias(read.groupId, peer.userId, read.from);
      this.ctx.hub.sendTo(read.from, wire);
    }
  }

  /** The wire form of a stored message for its sender, with its group read list. */
  private async wireOf(record: MessageRecord): Promise<WireMessage> {
    if (record.isGroup !== 1) return toWire(record);
    const reads = (await this.ctx.store.chat.groupReads([record.fp])).get(record.fp) ?? [];
    return groupViewFor(toWire(record, reads), record.from, this.ctx.groupAlias);
  }

  /** A record of a client's message with the server's fields filled in. */
  private record(
    peer: Peer,
    frame: ClientFrame,
    where: {
      to: string;
      tn?: string;
      ta?: string;
      clientId: string | null;
      groupId?: string | null;
      mchId: string;
      platformId: string;
      sessionId: string | null;
    },
  ): MessageRecord {
    return {
      fp: String(frame.fp),
      type: frame.type,
      from: peer.userId,
      to: where.to,
      fn: peer.name,
      tn: where.tn ?? '',
      fa: peer.avatar,
      ta: where.ta ?? '',
      mchId: where.mchId,
      platformId: where.platformId,
      clientId: where.clientId,
      groupId: where.groupId ?? null,
      sessionId: where.sessionId,
      dataContent: typeof frame.dataContent === 'string' ? frame.dataContent : '',
      isRead: 0,
      robot: 0,
      isGroup: where.groupId ? 1 : 0,
      createTime: this.ctx.clock.next(),
      cm: null,
    };
  }
}

