/**
 * The conformance kit (`conformance/`, `npx kefu-im-conformance <baseUrl>`) passes against the
 * reference server, on SQLite and on PostgreSQL (with Redis), run from code and run as the built
 * command. The servers keep the stock per-address limits and the demo agent (`demo:demo`), so the
 * kit runs with no option but the URL, exactly as an integrator would run it against `npm start`.
 * PostgreSQL or Redis missing: skipped with the reason printed, except under CI.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKS, runConformance, type ConformanceReport } from '../../../conformance/src/index.js';
import { DEMO_MERCHANT_SECRET } from '../src/identity/merchant-secrets.js';
import { runCli, summaryOf } from '../../../conformance/test/cli-process.js';
import { freshDatabase, postgresUnavailable, type TestDatabase } from './helpers/pg-database.js';
import { redisUnavailable, skipUnlessCi, TEST_REDIS_URL } from './helpers/prerequisites.js';
import { removeDir, startServer } from './helpers/start.js';

type Server = Awaited<ReturnType<typeof startServer>>;

/** The demo agent and the stock limits (the test helpers raise the per-address ones by default). */
const STOCK = { AGENTS: '', RATE_KEY_SESSIONS_MAX: '60', RATE_CONNECTS_MAX: '60' };

function notPassed(report: ConformanceReport): string[] {
  return report.results.filter((r) => r.status !== 'passed').map((r) => `${r.status} ${r.id}: ${r.reason ?? ''}`);
}

/** The same two runs against whichever store the server was started on. */
function conformanceSuite(store: string, server: () => Server): void {
  it('passes every check, run from code', async () => {
    // the reference server on loopback gives the demo merchant the public demo secret (protocol §3b)
    const report = await runConformance({ baseUrl: server().url, merchantSecret: DEMO_MERCHANT_SECRET });
    console.info(`[conformance] ${store}: ${report.passed} of ${CHECKS.length} checks passed in ${(report.durationMs / 1000).toFixed(1)} s (from code)`);
    expect(notPassed(report)).toEqual([]);
    expect(report.passed).toBe(CHECKS.length);
  }, 120_000);

  it('passes every check, run as the built command: one line per check, the summary, exit 0', async () => {
    const started = performance.now();
    const run = await runCli([server().url, '--merchant-secret', DEMO_MERCHANT_SECRET]);
    const summary = run.stdout.trim().split('\n').at(-1) ?? '';
    console.info(`[conformance] ${store}: the command printed "${summary}" and took ${((performance.now() - started) / 1000).toFixed(1)} s with node's start-up`);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(summaryOf(run.stdout)).toEqual({ passed: CHECKS.length, failed: 0, skipped: 0 });
    for (const check of CHECKS) expect(run.stdout).toContain(`✓ ${check.id}  `);
  }, 120_000);
}

describe('the conformance kit against the reference server on SQLite', () => {
  let server: Server;
  beforeAll(async () => {
    server = await startServer({ memoryDb: false }, STOCK);
  });
  afterAll(async () => {
    await server.close();
    removeDir(server.dataDir);
    expect(server.errors).toEqual([]);
  });
  conformanceSuite('SQLite', () => server);
});

const missing = [await postgresUnavailable(), await redisUnavailable()].filter((m) => m !== null).join('; ');
const skipPostgres = skipUnlessCi('conformance on PostgreSQL', missing === '' ? null : missing);

describe.skipIf(skipPostgres)('the conformance kit against the reference server on PostgreSQL', () => {
  let server: Server;
  let database: TestDatabase;
  beforeAll(async () => {
    database = await freshDatabase('kefu_conformance');
    server = await startServer({ memoryDb: false }, { ...STOCK, DATABASE_URL: database.url, REDIS_URL: TEST_REDIS_URL, CLUSTER_NAME: `conformance-${randomUUID()}` });
  });
  afterAll(async () => {
    await server?.close();
    if (server) removeDir(server.dataDir);
    await database?.drop();
    expect(server?.errors ?? []).toEqual([]);
  });
  conformanceSuite('PostgreSQL', () => server);
});
