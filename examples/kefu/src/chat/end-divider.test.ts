import { MessageType, type StoredMessage } from '@kefu-im/sdk';
import { describe, expect, it } from 'vitest';
import { conversationRows, isEndDivider, lastChatFp } from './end-divider.js';

const text = (fp: string): StoredMessage => ({ type: MessageType.Text, fp, dataContent: fp }) as StoredMessage;
const event = (fp: string): StoredMessage => ({ type: MessageType.SessionEvent, fp, dataContent: '{"event":"ended"}' }) as StoredMessage;
const shape = (rows: StoredMessage[]): string[] => rows.map((r) => (isEndDivider(r) ? '---' : String(r.fp)));

describe('issue 10: after the end the list shows a divider', () => {
  it('keeps chat rows only and adds a divider at the end while ended', () => {
    expect(shape(conversationRows([text('a'), event('e'), text('b')], new Set(), false))).toEqual(['a', 'b']);
    expect(shape(conversationRows([text('a'), text('b')], new Set(), true))).toEqual(['a', 'b', '---']);
  });

  it('keeps the divider where a conversation ended once a new one starts, never twice in a row', () => {
    expect(shape(conversationRows([text('a'), text('b'), text('c')], new Set(['b']), false))).toEqual(['a', 'b', '---', 'c']);
    expect(shape(conversationRows([text('a'), text('b')], new Set(['b']), true))).toEqual(['a', 'b', '---']);
  });

  it('shows no divider in an empty list', () => {
    expect(conversationRows([], new Set(), true)).toEqual([]);
  });
});

describe('the divider is placed after the last chat message when the conversation ended', () => {
  it('finds the newest chat message, skipping control messages', () => {
    expect(lastChatFp([text('a'), text('b'), event('e')])).toBe('b');
    expect(lastChatFp([event('e')])).toBe('');
  });
});
