import { describe, expect, it } from 'vitest';
import { ApiError } from '../http/errors.js';
import type { Transcript } from '../http/desk-types.js';
import { AgentDesk } from './agent-desk.js';
import { FakeDeskClient, snapshotFrame } from './test-utils.js';

const entry = { clientId: 'v1', name: 'Ann', since: 1, position: 1, mchId: 'M1', platformId: 'P1' };

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('DeskPreview: a queued visitor read before accepting', () => {
  it('opens a queued visitor: asks the server with its merchant and platform, keeps the transcript in the store', async () => {
    const client = new FakeDeskClient();
    const desk = new AgentDesk(client);
    client.frame(snapshotFrame([], [{ clientId: 'v1', name: 'Ann' }]));
    expect(desk.preview.store.getState()).toMatchObject({ visitor: null, transcript: null, waiting: false });
    const opening = desk.preview.open(entry);
    expect(desk.preview.store.getState()).toMatchObject({ visitor: { clientId: 'v1', name: 'Ann', mchId: 'M1', platformId: 'P1' }, loading: true, waiting: true });
    await opening;
    expect(client.api.agentQueuedTranscript).toHaveBeenCalledWith({ clientId: 'v1', mchId: 'M1', platformId: 'P1' });
    expect(desk.preview.store.getState()).toMatchObject({ loading: false, error: null, transcript: { messages: [{ dataContent: 'robot, help' }] } });
  });

  it('notices when the visitor leaves the queue; accepting it closes the preview', async () => {
    const client = new FakeDeskClient();
    const desk = new AgentDesk(client);
    client.frame(snapshotFrame([], [{ clientId: 'v1' }, { clientId: 'v2' }]));
    await desk.preview.open(entry);
    client.frame(snapshotFrame([], [{ clientId: 'v2' }]));
    expect(desk.preview.store.getState().waiting).toBe(false);
    client.frame(snapshotFrame([], [{ clientId: 'v1' }]));
    expect(desk.preview.store.getState().waiting).toBe(true);
    desk.accept('v2'); // another visitor: the preview stays
    expect(desk.preview.store.getState().visitor?.clientId).toBe('v1');
    desk.accept('v1');
    expect(client.sent.at(-1)).toMatchObject({ type: 311, dataContent: JSON.stringify({ clientId: 'v1' }) });
    expect(desk.preview.store.getState()).toMatchObject({ visitor: null, transcript: null });
  });

  it('keeps a refusal in the store and rejects; a reload asks again', async () => {
    const client = new FakeDeskClient();
    const desk = new AgentDesk(client);
    client.api.agentQueuedTranscript.mockRejectedValueOnce(new ApiError({ code: 4003, message: 'Forbidden: that visitor is not queued' }));
    await expect(desk.preview.open(entry)).rejects.toThrow('not queued');
    expect(desk.preview.store.getState()).toMatchObject({ visitor: { clientId: 'v1' }, loading: false, error: 'Forbidden: that visitor is not queued', transcript: null });
    await desk.preview.reload();
    expect(desk.preview.store.getState()).toMatchObject({ error: null, transcript: { messages: [{ dataContent: 'robot, help' }] } });
    expect(client.api.agentQueuedTranscript).toHaveBeenCalledTimes(2);
  });

  it('drops an answer that arrives after the preview closed or moved to another visitor', async () => {
    const client = new FakeDeskClient();
    const desk = new AgentDesk(client);
    const late = deferred<Transcript>();
    client.api.agentQueuedTranscript.mockImplementationOnce(() => late.promise);
    const first = desk.preview.open(entry);
    await desk.preview.open({ ...entry, clientId: 'v2', name: 'Bob' });
    late.resolve({ session: { sessionId: 'old', clientId: 'v1', visitorName: '', mchId: 'M1', platformId: 'P1', agentId: null, createdAt: 1, endedAt: null, score: null, remark: null }, messages: [{ type: 100, dataContent: 'stale' }] });
    await first;
    expect(desk.preview.store.getState()).toMatchObject({ visitor: { clientId: 'v2' }, transcript: { messages: [{ dataContent: 'robot, help' }] } });
    desk.preview.close();
    expect(desk.preview.store.getState()).toMatchObject({ visitor: null, transcript: null, loading: false });
  });

  it('refuses an entry that names no merchant (the server cannot be asked)', () => {
    const desk = new AgentDesk(new FakeDeskClient());
    expect(() => desk.preview.open({ clientId: 'v1', name: 'Ann', since: 1, position: 1 })).toThrow(/names no merchant/);
  });

  it('leaves no listener after destroy', () => {
    const client = new FakeDeskClient();
    const desk = new AgentDesk(client);
    desk.destroy();
    expect(desk.liveDisposers).toBe(0);
    client.frame(snapshotFrame([], [{ clientId: 'v1' }]));
    expect(desk.preview.store.getState().waiting).toBe(false);
  });
});
