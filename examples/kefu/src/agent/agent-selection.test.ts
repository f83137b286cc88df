import type { DeskConversation } from '@kefu-im/sdk/agent';
import { describe, expect, it } from 'vitest';
import { inWindow } from './agent-chat.js';
import { pickConversation, selectionLapsed } from './agent-workspace.js';

const conv = (sessionId: string, clientId: string, status: 'active' | 'ended'): DeskConversation => ({ sessionId, clientId, name: clientId, since: 1, status });

describe('the desk shows the conversation the agent chose', () => {
  const list = [conv('s1', 'v1', 'ended'), conv('s2', 'v2', 'active'), conv('s3', 'v1', 'active')];

  it('a visitor: its open conversation (a returning visitor’s new one), else its latest ended one', () => {
    expect(pickConversation(list, { clientId: 'v1' })?.sessionId).toBe('s3');
    expect(pickConversation([conv('s1', 'v1', 'ended')], { clientId: 'v1' })?.sessionId).toBe('s1');
    expect(pickConversation(list, { clientId: 'nobody' })).toBeNull();
    expect(pickConversation(list, null)).toBeNull();
  });

  it('a conversation picked in the list, while it is there', () => {
    expect(pickConversation(list, { clientId: 'v1', sessionId: 's1' })?.sessionId).toBe('s1');
    expect(pickConversation(list, { clientId: 'v1', sessionId: 'closed' })?.sessionId).toBe('s3');
  });
});

describe('the desk falls back to its first open conversation only when the selection lapsed', () => {
  const open = conv('s2', 'v2', 'active');
  const waiting = [{ clientId: 'v9', name: 'v9', since: 1, position: 1 }];

  it('a visitor just accepted keeps the selection while it waits for the snapshot, other conversations open or not', () => {
    expect(selectionLapsed({ clientId: 'v9', accepting: true }, null, waiting)).toBe(false);
  });

  it('an accepted visitor that left the queue without a conversation here (taken elsewhere, gone) lapses', () => {
    expect(selectionLapsed({ clientId: 'v9', accepting: true }, null, [])).toBe(true);
  });

  it('nothing selected, or a selection the desk cannot show (a closed conversation), lapses; a shown one never', () => {
    expect(selectionLapsed(null, null, waiting)).toBe(true);
    expect(selectionLapsed({ clientId: 'v9' }, null, waiting)).toBe(true);
    expect(selectionLapsed({ clientId: 'v1', sessionId: 'closed' }, null, [])).toBe(true);
    expect(selectionLapsed({ clientId: 'v2' }, open, [])).toBe(false);
  });
});

describe('each conversation shows its own part of the visitor’s thread', () => {
  const at = (createTime?: number) => ({ type: 100, fp: `m${createTime}`, sendState: 'sent' as const, ...(createTime === undefined ? {} : { createTime }) });

  it('after the end of the earlier conversation, up to its own end (both ends included once)', () => {
    expect(inWindow(at(5), { until: 5 })).toBe(true);
    expect(inWindow(at(6), { until: 5 })).toBe(false);
    expect(inWindow(at(5), { after: 5 })).toBe(false);
    expect(inWindow(at(6), { after: 5 })).toBe(true);
    expect(inWindow(at(3), {})).toBe(true);
  });

  it('a text not stored yet belongs to the open conversation, never to an ended one', () => {
    expect(inWindow(at(), { after: 5 })).toBe(true);
    expect(inWindow(at(), { until: 5 })).toBe(false);
  });
});
