import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Disposables } from '../timers.js';
import { FakeDeskClient, sessionEvent } from './test-utils.js';
import { DeskTransfer, MAX_TRANSFER_NOTE, TRANSFER_WAIT_MS, TransferError } from './transfer.js';

function setup() {
  const client = new FakeDeskClient();
  const disposables = new Disposables();
  return { client, disposables, transfers: new DeskTransfer(client, disposables) };
}

/** The server's refusal of the frame `fp`. */
function refuse(client: FakeDeskClient, fp: string, reason: string): void {
  client.emit('refusal', { reason, fp, message: { type: 500, dataContent: JSON.stringify({ reason, fp }) } });
}

const away = (clientId: string, to: string) => sessionEvent({ event: 'transferred-away', sessionId: `s-${clientId}`, clientId, to: { id: to, name: 'Bob' } });

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('transfer (type 314)', () => {
  it('sends the target and a trimmed, bounded note; none when blank', () => {
    const { client, transfers } = setup();
    void transfers.transfer('v1', 'agent:bob', '  VIP, wants a refund  ').catch(() => undefined);
    void transfers.transfer('v2', 'agent:bob', '   ').catch(() => undefined);
    void transfers.transfer('v3', 'agent:bob', 'x'.repeat(MAX_TRANSFER_NOTE + 10)).catch(() => undefined);
    expect(client.sent.map((s) => JSON.parse(s.dataContent ?? '') as unknown)).toEqual([
      { clientId: 'v1', to: 'agent:bob', note: 'VIP, wants a refund' },
      { clientId: 'v2', to: 'agent:bob' },
      { clientId: 'v3', to: 'agent:bob', note: 'x'.repeat(MAX_TRANSFER_NOTE) },
    ]);
    expect(client.sent.every((s) => s.type === 314)).toBe(true);
    expect(() => transfers.transfer('', 'agent:bob')).toThrow(TypeError);
  });

  it('resolves when the server says the conversation went to that agent (transferred-away)', async () => {
    const { client, transfers } = setup();
    const done = transfers.transfer('v1', 'agent:bob');
    expect(transfers.store.getState().last).toEqual({ clientId: 'v1', toAgentId: 'agent:bob', state: 'pending' });
    client.frame(away('v2', 'agent:bob'));
    client.frame(away('v1', 'agent:carol'));
    expect(transfers.store.getState().last?.state).toBe('pending');
    client.frame(away('v1', 'agent:bob'));
    await expect(done).resolves.toBeUndefined();
    expect(transfers.store.getState().last).toEqual({ clientId: 'v1', toAgentId: 'agent:bob', state: 'done' });
  });

  it.each(['at-capacity', 'agent-away', 'agent-offline', 'not-allowed'] as const)('rejects with a typed error when the server refuses it %s', async (reason) => {
    const { client, transfers } = setup();
    const done = transfers.transfer('v1', 'agent:bob');
    refuse(client, 'fp-other', reason); // another frame's refusal is not this transfer's
    expect(transfers.store.getState().last?.state).toBe('pending');
    refuse(client, 'fp-1', reason);
    const error = await done.then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(TransferError);
    expect(error).toMatchObject({ reason, clientId: 'v1', toAgentId: 'agent:bob' });
    expect(transfers.store.getState().last).toEqual({ clientId: 'v1', toAgentId: 'agent:bob', state: 'refused', reason });
  });

  it('an unknown refusal reads as not-allowed; a socket that is not open as not-open; no answer as timeout', async () => {
    const { client, transfers } = setup();
    const odd = transfers.transfer('v1', 'agent:bob');
    refuse(client, 'fp-1', 'something-new');
    await expect(odd).rejects.toMatchObject({ reason: 'not-allowed' });
    client.connectionState = 'closed';
    await expect(transfers.transfer('v2', 'agent:bob')).rejects.toMatchObject({ reason: 'not-open' });
    client.connectionState = 'open';
    const silent = transfers.transfer('v3', 'agent:bob');
    vi.advanceTimersByTime(TRANSFER_WAIT_MS);
    await expect(silent).rejects.toMatchObject({ reason: 'timeout' });
  });

  it('leaves no listener or timer after dispose', () => {
    const { client, disposables, transfers } = setup();
    void transfers.transfer('v1', 'agent:bob').catch(() => undefined);
    expect(disposables.size).toBeGreaterThan(0);
    disposables.dispose();
    expect(disposables.size).toBe(0);
    expect(client.listenerTotal()).toBe(0);
  });
});
