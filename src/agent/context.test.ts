import { describe, expect, it } from 'vitest';
import { ApiError } from '../http/errors.js';
import { AgentDesk } from './agent-desk.js';
import { FakeDeskClient } from './test-utils.js';

describe('DeskContext', () => {
  it('loads a visitor’s context into the store; a failure is kept per visitor and cleared by a later load', async () => {
    const client = new FakeDeskClient();
    const desk = new AgentDesk(client);
    const where = { clientId: 'v1', mchId: 'M1', platformId: 'P1' };
    expect(desk.context.of('v1')).toBeUndefined();
    await desk.context.load(where);
    expect(desk.context.of('v1')).toMatchObject({ name: 'name v1', merchantName: 'Shop', pastConversations: 3, lastRating: 5, entry: { cpay: 'ORD-1' }, deposit: { mchOrderNo: 'ORD-1' } });
    client.api.agentVisitorContext.mockRejectedValueOnce(new ApiError({ code: 4003, message: 'Forbidden' }));
    await expect(desk.context.load(where)).rejects.toThrow('Forbidden');
    expect(desk.context.store.getState().errors).toEqual({ v1: 'Forbidden' });
    await desk.context.load(where);
    expect(desk.context.store.getState().errors).toEqual({});
  });
});
