import type { PublicConfig, StoredMessage } from '@kefu-im/sdk';
import { describe, expect, it } from 'vitest';
import type { ConversationInfo } from '../chat/conversation.js';
import { FIRST_SCREEN_KEY, FIRST_SCREEN_MAX_CHARS, FIRST_SCREEN_MESSAGES, firstScreenOf, forgetFirstScreen, readFirstScreen, writeFirstScreen, type FirstScreenStorage } from './first-screen.js';

const config: PublicConfig = { baseUrl: 'https://im.example', socketUrl: 'wss://im.example/ws', socketKey: 'pk,secret', aesSwitch: true };
const info: ConversationInfo = { kind: 'service', mchId: 'M1', platformId: 'P1', kefuId: '', groupId: null, title: 'Shop', notice: '', query: { param: null, params: null, isApp: false, json: null, cpay: null } };
const PAGE = '/kefu/abc';

function text(i: number, extra: Partial<StoredMessage> = {}): StoredMessage {
  return { fp: `fp-${i}`, type: 100, from: 'v1', to: 'agent', dataContent: `text ${i}`, createTime: 1_000 + i, ...extra } as StoredMessage;
}

function memory(): FirstScreenStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return { map, getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v), removeItem: (k) => void map.delete(k) };
}

describe('issue 24: the newest messages kept on the device for the next visit', () => {
  it('keeps the newest 20 messages the server has, oldest first (pending and failed ones belong to the outbox)', () => {
    const messages = [...Array.from({ length: 30 }, (_, i) => text(i)), text(30, { sendState: 'pending' }), text(31, { sendState: 'failed' })];
    const screen = firstScreenOf('v1', PAGE, config, info, messages);
    expect(screen?.messages.map((m) => m.fp)).toEqual(Array.from({ length: FIRST_SCREEN_MESSAGES }, (_, i) => `fp-${i + 10}`));
    expect(screen?.info).toEqual({ kind: 'service', mchId: 'M1', platformId: 'P1', kefuId: '', groupId: null, title: 'Shop', notice: '' });
    expect(firstScreenOf('v1', PAGE, config, info, [])).toBeNull();
  });

  it('stays within its size: a message too long to keep ends the kept run (no gap in what is shown)', () => {
    const long = text(5, { dataContent: 'x'.repeat(5_000) });
    const screen = firstScreenOf('v1', PAGE, config, info, [text(1), text(2), long, text(6), text(7)]);
    expect(screen?.messages.map((m) => m.fp)).toEqual(['fp-6', 'fp-7']);
    const many = Array.from({ length: 20 }, (_, i) => text(i, { dataContent: 'y'.repeat(3_000) }));
    const kept = firstScreenOf('v1', PAGE, config, info, many);
    expect(JSON.stringify(kept).length).toBeLessThanOrEqual(FIRST_SCREEN_MAX_CHARS);
    expect(kept?.messages.length).toBeLessThan(20);
  });

  it('is read back only for the same visitor and the same page address', () => {
    const storage = memory();
    expect(writeFirstScreen(storage, firstScreenOf('v1', PAGE, config, info, [text(1), text(2)]))).toBe(true);
    expect(readFirstScreen(storage, 'v1', PAGE)?.messages.map((m) => m.dataContent)).toEqual(['text 1', 'text 2']);
    expect(readFirstScreen(storage, 'v1', PAGE)?.config).toEqual(config);
    // another visitor on this device, or another entry link, never sees it
    expect(readFirstScreen(storage, 'v2', PAGE)).toBeNull();
    expect(readFirstScreen(storage, 'v1', '/kefu/other')).toBeNull();
    expect(readFirstScreen(storage, 'v1', `${PAGE}?param=x`)).toBeNull();
  });

  it('one record per device: a write replaces the last visitor’s; forgetting removes it', () => {
    const storage = memory();
    writeFirstScreen(storage, firstScreenOf('v1', PAGE, config, info, [text(1)]));
    writeFirstScreen(storage, firstScreenOf('v2', PAGE, config, info, [text(2)]));
    expect(storage.map.size).toBe(1);
    expect(readFirstScreen(storage, 'v1', PAGE)).toBeNull();
    expect(readFirstScreen(storage, 'v2', PAGE)?.messages).toHaveLength(1);
    forgetFirstScreen(storage);
    expect(storage.map.has(FIRST_SCREEN_KEY)).toBe(false);
    expect(readFirstScreen(storage, 'v2', PAGE)).toBeNull();
  });

  it('ignores what it cannot read (another format, no configuration, broken JSON, a refusing storage)', () => {
    const storage = memory();
    storage.setItem(FIRST_SCREEN_KEY, '{not json');
    expect(readFirstScreen(storage, 'v1', PAGE)).toBeNull();
    storage.setItem(FIRST_SCREEN_KEY, JSON.stringify({ v: 2, clientId: 'v1', page: PAGE, config, info, messages: [text(1)] }));
    expect(readFirstScreen(storage, 'v1', PAGE)).toBeNull();
    storage.setItem(FIRST_SCREEN_KEY, JSON.stringify({ v: 1, clientId: 'v1', page: PAGE, config: {}, info, messages: [text(1)] }));
    expect(readFirstScreen(storage, 'v1', PAGE)).toBeNull();
    storage.setItem(FIRST_SCREEN_KEY, JSON.stringify({ v: 1, clientId: 'v1', page: PAGE, config, info, messages: [{ nofp: 1 }] }));
    expect(readFirstScreen(storage, 'v1', PAGE)).toBeNull();
    const refusing: FirstScreenStorage = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('quota');
      },
      removeItem: () => {
        throw new Error('denied');
      },
    };
    expect(readFirstScreen(refusing, 'v1', PAGE)).toBeNull();
    expect(writeFirstScreen(refusing, firstScreenOf('v1', PAGE, config, info, [text(1)]))).toBe(false);
    expect(() => forgetFirstScreen(refusing)).not.toThrow();
  });
});
