/** `/healthz` and `/readyz` (issue 12): ready while serving, 503 while draining or when the store fails. */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerHealthRoutes } from '../src/http/health-routes.js';
import type { Store } from '../src/store/types.js';
import { removeDir, startServer } from './helpers/start.js';

describe('health checks', () => {
  it('answers 200 on a serving node, with the security headers and no caching', async () => {
    const server = await startServer();
    try {
      const health = await fetch(`${server.url}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ ok: true });
      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(ready.headers.get('cache-control')).toBe('no-store');
      expect(ready.headers.get('x-content-type-options')).toBe('nosniff');
    } finally {
      await server.close();
      removeDir(server.dataDir);
    }
  });

  it('says 503 while draining and when the store does not answer; /healthz stays 200', async () => {
    let draining = false;
    let broken = false;
    const store = { ping: async () => { if (broken) throw new Error('database is closed'); } } as unknown as Store;
    const app = Fastify();
    registerHealthRoutes(app, { draining: () => draining, ping: () => store.ping() });
    expect((await app.inject({ url: '/readyz' })).statusCode).toBe(200);
    draining = true;
    const drainingAnswer = await app.inject({ url: '/readyz' });
    expect(drainingAnswer.statusCode).toBe(503);
    expect(drainingAnswer.json()).toEqual({ ready: false, reason: 'draining' });
    draining = false;
    broken = true;
    expect((await app.inject({ url: '/readyz' })).json()).toEqual({ ready: false, reason: 'store' });
    expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);
    await app.close();
  });
});
