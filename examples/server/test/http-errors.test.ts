/**
 * The global error handler (`src/http/errors.ts`): what is not a client's fault is reported as
 * unexpected, and a client that left in the middle of an answer is not.
 */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { installErrorHandlers } from '../src/http/errors.js';

/** An app whose one route fails with `error`; what the handler reported, and the answer. */
async function failWith(error: Error): Promise<{ reported: unknown[]; status: number; body: { code: number } }> {
  const app = Fastify();
  const reported: unknown[] = [];
  installErrorHandlers(app, (e) => reported.push(e));
  app.get('/fails', () => Promise.reject(error));
  const answer = await app.inject({ method: 'GET', url: '/fails' });
  await app.close();
  return { reported, status: answer.statusCode, body: answer.json() };
}

describe('unexpected errors are reported; a client that left is not', () => {
  it('reports a failure of the server with a 500 envelope', async () => {
    const failure = new Error('database lost');
    const { reported, status } = await failWith(failure);
    expect(status).toBe(500);
    expect(reported).toEqual([failure]);
  });
  it('does not report a response stream closed early by its client (ERR_STREAM_PREMATURE_CLOSE)', async () => {
    const { reported } = await failWith(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    expect(reported).toEqual([]);
  });
});
