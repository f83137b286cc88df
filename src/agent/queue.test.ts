import { describe, expect, it } from 'vitest';
import { Disposables } from '../timers.js';
import { DeskQueue } from './queue.js';
import { FakeDeskClient, snapshotFrame } from './test-utils.js';

function setup() {
  const client = new FakeDeskClient();
  const disposables = new Disposables();
  return { client, disposables, queue: new DeskQueue(client, disposables) };
}

describe('the queue manager holds the last type 310 snapshot', () => {
  it('starts empty and not received; a snapshot fills the queue, the open conversations and the online count', () => {
    const { client, queue } = setup();
    expect(queue.store.getState()).toEqual({ queue: [], sessions: [], online: 0, received: false });
    client.frame(snapshotFrame([{ sessionId: 's1', clientId: 'v1' }], [{ clientId: 'v2' }]));
    expect(queue.store.getState()).toMatchObject({ received: true, online: 1, queue: [{ clientId: 'v2', position: 1 }], sessions: [{ sessionId: 's1', clientId: 'v1', mchId: 'M1' }] });
    expect(queue.session('v1')).toMatchObject({ sessionId: 's1' });
    expect(queue.session('v2')).toBeUndefined();
  });

  it('ignores other frames and a malformed snapshot', () => {
    const { client, queue } = setup();
    client.frame({ type: 100, dataContent: 'hi' });
    client.frame({ type: 310, dataContent: 'not json' });
    expect(queue.store.getState().received).toBe(false);
  });

  it('accept sends type 311 naming the visitor', () => {
    const { client, queue } = setup();
    queue.accept('v9');
    expect(client.sent).toEqual([{ type: 311, dataContent: JSON.stringify({ clientId: 'v9' }) }]);
  });

  it('stops listening once its disposables are disposed', () => {
    const { client, disposables, queue } = setup();
    disposables.dispose();
    expect(client.listenerTotal()).toBe(0);
    client.frame(snapshotFrame([{ sessionId: 's1', clientId: 'v1' }]));
    expect(queue.store.getState().received).toBe(false);
  });
});
