import type { SendInput, StoredMessage } from '@kefu-im/sdk';
import { describe, expect, it } from 'vitest';
import { LANGUAGE_FRAME_TYPE, tellServerLanguage } from './visitor-language.js';

/** A client double: its connect data, connection state and what it sent. */
function fakeClient(data: Record<string, unknown>, state: 'open' | 'closed' = 'open') {
  let connectData = data;
  const sent: SendInput[] = [];
  return {
    sent,
    connectionState: state,
    getConnectData: () => connectData,
    setConnectData: (next: Record<string, unknown>) => void (connectData = { ...next }),
    send: (input: SendInput) => {
      sent.push(input);
      return { ...input, sendState: state === 'open' ? 'sent' : 'failed' } as StoredMessage;
    },
  };
}

describe("issue 23: the server hears a visitor's change of language (type 106 and the connect data)", () => {
  it('sends {language} on an open socket and keeps it for the next connect', () => {
    const client = fakeClient({ role: 'visitor', mchId: 'M', platformId: 'P', language: 'zh' });
    expect(tellServerLanguage(client, 'en')).toBe(true);
    expect(client.sent).toEqual([{ type: LANGUAGE_FRAME_TYPE, dataContent: '{"language":"en"}' }]);
    expect(client.getConnectData()).toEqual({ role: 'visitor', mchId: 'M', platformId: 'P', language: 'en' });
    // the same language again: nothing
    expect(tellServerLanguage(client, 'en')).toBe(false);
    expect(client.sent).toHaveLength(1);
  });

  it('only keeps it for the next connect while not connected', () => {
    const client = fakeClient({ role: 'visitor', language: 'zh' }, 'closed');
    expect(tellServerLanguage(client, 'vi')).toBe(false);
    expect(client.sent).toEqual([]);
    expect(client.getConnectData()['language']).toBe('vi');
  });

  it("tells nothing for a client that is not a prepared visitor's (an agent's, or before the entry link was read)", () => {
    for (const data of [{ role: 'agent', account: 'a' }, {}]) {
      const client = fakeClient(data);
      expect(tellServerLanguage(client, 'en')).toBe(false);
      expect(client.sent).toEqual([]);
      expect(client.getConnectData()).toEqual(data);
    }
  });
});
