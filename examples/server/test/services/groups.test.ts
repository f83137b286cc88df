/**
 * The group service: a visitor joins an open group on first contact; a closed group is refused
 * to anyone who is not a member; member lists are for members (and agents), by alias.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Code } from '../../src/http/envelope.js';
import { mayJoin } from '../../src/services/groups.js';
import { F, refusalOf, serviceFixture, type ServiceFixture } from './fixture.js';

let fx: ServiceFixture;
beforeEach(async () => {
  fx = await serviceFixture();
});
afterEach(async () => {
  await fx.close();
});

const joiner = { clientId: 'v-joiner', name: 'Joiner', avatar: '/j.png' };


describe('joining an open group', () => {
  it('joinOpenGroup adds the visitor as a member once, with the name and avatar given', async () => {
    const { groups } = fx.services;
    expect(mayJoin({ open: true })).toBe(true);
    const member = await groups.joinOpenGroup(F.openGroupId, joiner);
    expect(member).toMatchObject({ groupId: F.openGroupId, clientId: joiner.clientId, name: 'Joiner', avatar: '/j.png', role: 'member' });
    const again = await groups.joinOpenGroup(F.openGroupId, { ...joiner, name: 'Other name' });
    expect(again).toEqual(member);
    expect((await fx.store.directory.members(F.openGroupId)).filter((m) => m.clientId === joiner.clientId)).toHaveLength(1);
  });

  it('keeps an existing membership as it is (a staff member stays staff)', async () => {
    await fx.store.directory.addMember({ groupId: F.openGroupId, clientId: 'v-staff', name: 'Staff', avatar: '', role: 'staff', joinedAt: 1 });
    expect(await fx.services.groups.joinOpenGroup(F.openGroupId, { clientId: 'v-staff', name: 'X', avatar: '' })).toMatchObject({ role: 'staff', name: 'Staff', joinedAt: 1 });
  });

  it('admitVisitor (getGroupInfo) joins with the stored name and avatar', async () => {
    const group = await fx.services.groups.require(F.openGroupId);
    expect(await fx.services.groups.admitVisitor(group, F.plain)).toMatchObject({ name: `${F.plain} stored`, avatar: `/a/${F.plain}.png` });
    expect(await fx.services.groups.info(group)).toMatchObject({ groupId: F.openGroupId, name: 'Open', memberCount: 1 });
  });
});

describe('joining a closed group is refused', () => {
  it('joinOpenGroup adds nobody and answers undefined (the socket ignores it)', async () => {
    const { groups } = fx.services;
    expect(mayJoin({ open: false })).toBe(false);
    expect(await groups.joinOpenGroup(F.closedGroupId, joiner)).toBeUndefined();
    expect(await groups.isMember(F.closedGroupId, joiner.clientId)).toBe(false);
    expect(await fx.store.directory.members(F.closedGroupId)).toEqual([]);
  });

  it('admitVisitor and requireReadable answer 1003 "not a member"; a member is let in', async () => {
    const { groups } = fx.services;
    const closed = await groups.require(F.closedGroupId);
    const notMember = { code: Code.NotFound, message: 'You are not a member of this group' };
    expect(await refusalOf(groups.admitVisitor(closed, F.plain))).toEqual(notMember);
    expect(await refusalOf(groups.requireReadable(F.closedGroupId, F.plain))).toEqual(notMember);
    expect(await groups.isMember(F.closedGroupId, F.plain)).toBe(false);

    await fx.store.directory.addMember({ groupId: F.closedGroupId, clientId: F.plain, name: 'P', avatar: '', role: 'member', joinedAt: 1 });
    await expect(groups.admitVisitor(closed, F.plain)).resolves.toMatchObject({ clientId: F.plain });
    await expect(groups.requireReadable(F.closedGroupId, F.plain)).resolves.toMatchObject({ groupId: F.closedGroupId });
  });

  it('an unknown group: joinOpenGroup answers undefined, the others 1003 "Unknown group"', async () => {
    const { groups } = fx.services;
    expect(await groups.joinOpenGroup('g-none', joiner)).toBeUndefined();
    expect(await refusalOf(groups.require('g-none'))).toEqual({ code: Code.NotFound, message: 'Unknown group' });
    expect(await refusalOf(groups.requireReadable('g-none', F.plain))).toEqual({ code: Code.NotFound, message: 'Unknown group' });
  });
});

describe('reading an open group does not join it', () => {
  it('requireReadable lets a non-member read an open group without adding it', async () => {
    await expect(fx.services.groups.requireReadable(F.openGroupId, F.plain)).resolves.toMatchObject({ open: true });
    expect(await fx.services.groups.isMember(F.openGroupId, F.plain)).toBe(false);
  });
});

describe('member lists: members and agents only, other visitors by alias', () => {
  it('refuses a visitor who is not a member (4003), shows a member itself by id and others by alias', async () => {
    const { groups } = fx.services;
    await groups.joinOpenGroup(F.openGroupId, { clientId: 'v-a', name: 'A', avatar: '' });
    await groups.joinOpenGroup(F.openGroupId, { clientId: 'v-b', name: 'B', avatar: '' });
    expect((await refusalOf(groups.membersFor(F.openGroupId, { identity: 'v-c', role: 'visitor' }))).code).toBe(Code.Forbidden);
    const seenByA = await groups.membersFor(F.openGroupId, { identity: 'v-a', role: 'visitor' });
    expect(seenByA.map((m) => m.clientId)).toContain('v-a');
    expect(seenByA.map((m) => m.clientId)).not.toContain('v-b');
    expect(seenByA.find((m) => m.name === 'B')?.clientId).toMatch(/^m-[0-9a-f]{16}$/);
    const seenByAgent = await groups.membersFor(F.openGroupId, { identity: 'agent:alice', role: 'agent', merchants: [F.mchId] });
    // an agent of another merchant (or of none) is no member
    expect((await refusalOf(groups.membersFor(F.openGroupId, { identity: 'agent:mallory', role: 'agent', merchants: [F.otherMchId] }))).code).toBe(Code.Forbidden);
    expect((await refusalOf(groups.membersFor(F.openGroupId, { identity: 'agent:mallory', role: 'agent' }))).code).toBe(Code.Forbidden);
    expect(seenByAgent).toHaveLength(2);
    expect((await refusalOf(groups.membersFor('g-none', { identity: 'agent:alice', role: 'agent' }))).code).toBe(Code.NotFound);
  });
});
