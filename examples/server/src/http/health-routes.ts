/**
 * Health checks for a balancer or an orchestrator: `/healthz` (the process answers) and `/readyz`
 * (it takes new work: not draining, and its store answers). A draining node (SIGTERM) says 503 at
 * once, so the balancer stops sending it connections while its sockets are closed with 1012.
 * @module
 */
import type { FastifyInstance } from 'fastify';

/** What the readiness check looks at. */
export interface Readiness {
  /** True from the start of a drain. */
  draining(): boolean;
  /** Resolves when storage answers, rejects when it does not. */
  ping(): Promise<void>;
}

/** Registers `GET /healthz` and `GET /readyz`. */
export function registerHealthRoutes(app: FastifyInstance, readiness: Readiness): void {
  app.get('/healthz', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { ok: true };
  });
  app.get('/readyz', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    if (readiness.draining()) return reply.code(503).send({ ready: false, reason: 'draining' });
    try {
      await readiness.ping();
    } catch {
      return reply.code(503).send({ ready: false, reason: 'store' });
    }
    return { ready: true };
  });
}
