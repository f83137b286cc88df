/**
 * Groups and channels: who is a member, who may read, and the one joining rule: a visitor joins
 * an open group on first contact (socket connect with a group, a group message, `getGroupInfo`);
 * a closed group takes only the members it was given.
 * @module
 */

import type { GroupAliaser } from '../identity/group-alias.js';
import { ApiError, Code } from '../http/envelope.js';
import type { Group, GroupMember, Store } from '../store/types.js';
import type { Visitors } from './visitors.js';

/** Who joins: a visitor's client id with the name and avatar the group shows. */
export interface Joiner {
  /** Client id. */
  clientId: string;
  /** Display name. */
  name: string;
  /** Avatar URL ('' for none). */
  avatar: string;
}

/** Who reads a group's member list. */
export interface GroupReader {
  /** The client id, or `agent:<account>`. */
  identity: string;
  /** Agents see the groups of their merchants. */
  role: 'visitor' | 'agent';
  /** An agent's merchants (none for a visitor). */
  merchants?: readonly string[];
}

/** What `getGroupInfo` shows of a group. */
export interface GroupInfo {
  groupId: string;
  name: string;
  kind: Group['kind'];
  avatar: string;
  notice: string;
  memberCount: number;
}

/** A member as another reader sees it (visitors by their per-group alias). */
export interface MemberView {
  clientId: string;
  name: string;
  avatar: string;
  role: GroupMember['role'];
}

/** The rule: whether a visitor who is not a member may join `group`. */
export function mayJoin(group: Pick<Group, 'open'>): boolean {
  return group.open;
}

function unknownGroup(): ApiError {
  return new ApiError(Code.NotFound, 'Unknown group');
}

function notMember(): ApiError {
  return new ApiError(Code.NotFound, 'You are not a member of this group');
}

/** The group service. */
export class Groups {
  /**
   * @param store - storage
   * @param visitors - stored names and avatars of joining visitors
   * @param groupAlias - what a member's client id looks like to another reader (protocol §3a)
   * @param now - the wall clock (joinedAt)
   */
  constructor(
    private readonly store: Store,
    private readonly visitors: Visitors,
    private readonly groupAlias: GroupAliaser,
    private readonly now: () => number = Date.now,
  ) {}

  /** The group, if any. */
  find(groupId: string): Promise<Group | undefined> {
    return this.store.directory.group(groupId);
  }

  /**
   * The group.
   * @throws ApiError 1003 when unknown.
   */
  async require(groupId: string): Promise<Group> {
    const group = await this.find(groupId);
    if (!group) throw unknownGroup();
    return group;
  }

  /** The membership of `clientId`, if any. */
  member(groupId: string, clientId: string): Promise<GroupMember | undefined> {
    return this.store.directory.member(groupId, clientId);
  }

  /** Whether `clientId` is a member of the group. */
  async isMember(groupId: string, clientId: string): Promise<boolean> {
    return (await this.member(groupId, clientId)) !== undefined;
  }

  /**
   * Joins `joiner` to an open group (an existing membership is kept as it is).
   * @returns the membership, or undefined when the group is unknown, or closed and `joiner` is
   * not a member
   */
  async joinOpenGroup(groupId: string, joiner: Joiner): Promise<GroupMember | undefined> {
    const group = await this.find(groupId);
    if (!group) return undefined;
    return this.join(group, joiner);
  }

  /**
   * Makes the stored visitor `clientId` a member of `group` ({@link Groups.joinOpenGroup} with
   * its stored name and avatar).
   * @throws ApiError 1003 when the group is closed and it is not a member.
   */
  async admitVisitor(group: Group, clientId: string): Promise<GroupMember> {
    const existing = await this.member(group.groupId, clientId);
    if (existing) return existing;
    if (!mayJoin(group)) throw notMember();
    const visitor = await this.visitors.find(clientId);
    const joined = await this.join(group, { clientId, name: visitor?.name ?? clientId, avatar: visitor?.avatar ?? '' });
    if (!joined) throw notMember();
    return joined;
  }

  /**
   * The group whose history `clientId` may read: a member's, or any open group's.
   * @throws ApiError 1003 when unknown, or closed and `clientId` is not a member.
   */
  async requireReadable(groupId: string, clientId: string): Promise<Group> {
    const group = await this.require(groupId);
    if (!(await this.isMember(groupId, clientId)) && !mayJoin(group)) throw notMember();
    return group;
  }

  /** What `getGroupInfo` shows of `group`. */
  async info(group: Group): Promise<GroupInfo> {
    return {
      groupId: group.groupId,
      name: group.name,
      kind: group.kind,
      avatar: group.avatar,
      notice: group.notice,
      memberCount: (await this.store.directory.members(group.groupId)).length,
    };
  }

  /**
   * The members as `reader` sees them: agents and members only, other visitors by their
   * per-group alias, never by client id (protocol §3a).
   * @throws ApiError 1003 when the group is unknown; 4003 when `reader` is a visitor who is not a
   * member, or an agent of another merchant.
   */
  async membersFor(groupId: string, reader: GroupReader): Promise<MemberView[]> {
    const group = await this.require(groupId);
    const allowed = reader.role === 'agent' ? (reader.merchants ?? []).includes(group.mchId) : await this.isMember(groupId, reader.identity);
    if (!allowed) throw new ApiError(Code.Forbidden, 'Forbidden: only members see who is in this group');
    return (await this.store.directory.members(groupId)).map((m) => ({
      clientId: this.groupAlias(groupId, m.clientId, reader.identity),
      name: m.name,
      avatar: m.avatar,
      role: m.role,
    }));
  }

  /**
   * {@link Groups.joinOpenGroup} for a group already read.
   * @returns the membership, or undefined when `group` is closed and `joiner` is not a member
   */
  async join(group: Group, joiner: Joiner): Promise<GroupMember | undefined> {
    const existing = await this.member(group.groupId, joiner.clientId);
    if (existing || !mayJoin(group)) return existing;
    await this.store.directory.addMember({ groupId: group.groupId, clientId: joiner.clientId, name: joiner.name, avatar: joiner.avatar, role: 'member', joinedAt: this.now() });
    return this.member(group.groupId, joiner.clientId);
  }
}
