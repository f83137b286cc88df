// @vitest-environment happy-dom
import type { ChatMessage } from '@kefu-im/sdk';
import { AgentDesk } from '@kefu-im/sdk/agent';
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RecordedCall } from '../../test/helpers/fake-permit.js';
import { connect, FakeWebSocket, makeClient, serverSends, withClient } from './test-utils.js';
import { useAgentHistory, useAgentQueue } from './use-agent-desk.js';

beforeEach(() => FakeWebSocket.reset());
afterEach(cleanup);

const VISITOR = 'visitor-1';
/** The visitor's conversation: its robot phase (100, 200) and the agent's reply. */
const HISTORY: ChatMessage[] = [
  { type: 100, fp: 'q1', from: VISITOR, to: 'robot', dataContent: 'Where is my order?', createTime: 1_700_000_001_000 },
  { type: 200, fp: 'r1', from: 'robot', to: VISITOR, dataContent: 'Let me find an agent.', createTime: 1_700_000_002_000 },
  { type: 100, fp: 'a1', from: 'agent:alice', to: VISITOR, dataContent: 'Hello, Alice here.', createTime: 1_700_000_003_000 },
];

function historyRoute(calls: unknown[]) {
  return (call: RecordedCall) => {
    calls.push(call.payload);
    const q = call.payload as { before?: number; size: number };
    const older = HISTORY.filter((m) => q.before === undefined || (m.createTime as number) < q.before);
    const list = older.slice(-q.size);
    return { code: 0, message: 'ok', data: { list, hasMore: older.length > list.length } };
  };
}

const SNAPSHOT: ChatMessage = {
  type: 310,
  dataContent: JSON.stringify({ queue: [{ clientId: 'v2', name: 'Bo', since: 1, position: 1, mchId: 'M1', platformId: 'P1' }], sessions: [{ sessionId: 's1', clientId: VISITOR, name: 'Ann', since: 2, mchId: 'M1', platformId: 'P1' }], online: 1 }),
};

describe('useAgentQueue / useAgentHistory: the desk through hooks', () => {
  it('renders the snapshot, the conversation with its robot phase loaded by the desk, and older pages on demand', async () => {
    const calls: unknown[] = [];
    const { client } = makeClient({ routes: { '/im/api/permit/findMsgForCus': historyRoute(calls) } }, { connectData: { role: 'agent', account: 'alice', password: 'pw' } });
    const desk = new AgentDesk(client, { pageSize: 2 });
    const ws = await connect(client, 'agent:alice');
    const queue = renderHook(() => useAgentQueue(desk), { wrapper: withClient(client) });
    const chat = renderHook(() => useAgentHistory(desk, VISITOR), { wrapper: withClient(client) });
    expect(queue.result.current.received).toBe(false);

    serverSends(ws, SNAPSHOT);
    expect(queue.result.current).toMatchObject({ received: true, online: 1, queue: [{ clientId: 'v2', mchId: 'M1' }], sessions: [{ clientId: VISITOR, platformId: 'P1' }] });
    await act(() => vi.waitFor(() => expect(chat.result.current.loaded).toBe(true)));
    expect(calls[0]).toMatchObject({ clientId: VISITOR, mchId: 'M1', platformId: 'P1', size: 2 });
    expect(chat.result.current.messages.map((m) => m.fp)).toEqual(['r1', 'a1']);
    expect(chat.result.current.hasMore).toBe(true);

    await act(() => chat.result.current.loadOlder());
    expect(chat.result.current.messages.map((m) => m.fp)).toEqual(['q1', 'r1', 'a1']);
    expect(chat.result.current).toMatchObject({ hasMore: false, loading: false, error: null });
    desk.destroy();
    client.destroy();
  });
});
