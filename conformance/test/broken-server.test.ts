/**
 * The kit's checks can fail: against a small fake server that breaks one rule at a time, exactly
 * the checks of that rule fail (and the same fake without flaws passes every check but the agent
 * ones). The built command exits 1 and says which check failed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKS, runConformance, type ConformanceReport } from '../src/index.js';
import { runCli, summaryOf } from './cli-process.js';
import { startFakeServer, type FakeServer, type Flaw } from './fake-server.js';

async function check(server: FakeServer): Promise<ConformanceReport> {
  return runConformance({ baseUrl: server.url, agent: null, timeoutMs: 3000 });
}

const failedIds = (report: ConformanceReport): string[] => report.results.filter((r) => r.status === 'failed').map((r) => r.id);
// the fake has no agents and implements no verified identity (protocol §3b): those checks are skipped
const agentIds = CHECKS.filter((c) => c.needsAgent || c.needsMerchantSecret).map((c) => c.id);

describe('the verified-identity checks can fail', () => {
  it('with --merchant-secret against a server without protocol §3b (it ignores identityToken), exactly the verified checks fail', async () => {
    const server = await startFakeServer();
    try {
      const report = await runConformance({ baseUrl: server.url, agent: null, timeoutMs: 3000, merchantSecret: 'a-secret-the-fake-never-checks-0123456789' });
      expect(failedIds(report)).toEqual(CHECKS.filter((c) => c.needsMerchantSecret).map((c) => c.id));
    } finally {
      await server.close();
    }
  }, 60_000);
});

describe('the kit against a fake server without flaws', () => {
  it('passes every check; the agent and verified-identity checks are skipped (no agents, no --merchant-secret)', async () => {
    const server = await startFakeServer();
    try {
      const report = await check(server);
      expect(report.results.filter((r) => r.status === 'failed')).toEqual([]);
      expect(report.results.filter((r) => r.status === 'skipped').map((r) => r.id)).toEqual(agentIds);
      expect(report.passed).toBe(CHECKS.length - agentIds.length);
    } finally {
      await server.close();
    }
  }, 60_000);
});

describe('the kit against a fake server that breaks one rule', () => {
  const cases: [Flaw, string[]][] = [
    ['accepts-bad-hmac', ['connect.bad-hmac']],
    // a server that stores every resend also lists the resends as newer than the first copy
    ['no-dedup', ['frames.dedup-history', 'frames.history-after']],
    // accepting the claimed id without its secret also binds the spare key session to it
    ['ignores-client-secret', ['identity.missing-secret', 'identity.wrong-secret', 'identity.unbound-call']],
    ['no-call-binding', ['identity.unbound-call', 'identity.foreign-call']],
    ['no-rate-limit', ['limits.rate']],
    ['accepts-foreign-from', ['identity.foreign-from']],
    ['leaks-to-others', ['frames.owner-only']],
    ['plain-frames', ['frames.aes-switch']],
    ['no-frame-limit', ['limits.oversize-frame']],
    ['no-blank-check', ['frames.blank']],
    // typing (protocol §5a) without agents: the relay, preview and rate checks need one (skipped)
    ['stores-typing', ['typing.never-stored']],
    ['relays-typing', ['typing.outside-conversation']],
  ];
  it.each(cases)('%s: fails exactly %j', async (flaw, expected) => {
    const server = await startFakeServer([flaw]);
    try {
      const report = await check(server);
      expect(failedIds(report)).toEqual(expected);
      for (const id of expected) expect(report.results.find((r) => r.id === id)?.reason).toBeTruthy();
    } finally {
      await server.close();
    }
  }, 60_000);
});

describe('the command against a broken server', () => {
  let server: FakeServer;
  beforeAll(async () => {
    server = await startFakeServer(['no-dedup']);
  });
  afterAll(() => server.close());

  it('prints ✗ with the reason for the failed checks and the summary, and exits 1', async () => {
    const run = await runCli([server.url, '--no-agent', '--timeout', '3000']);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/^✗ frames\.dedup-history .+ — findMsgForCus lists 3 messages with fp /m);
    expect(run.stdout).toMatch(/^✓ connect\.bad-hmac /m);
    expect(summaryOf(run.stdout)).toEqual({ passed: CHECKS.length - agentIds.length - 2, failed: 2, skipped: agentIds.length });
  }, 60_000);

  it('prints the report as JSON with --json', async () => {
    const run = await runCli([server.url, '--no-agent', '--timeout', '3000', '--json']);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as ConformanceReport;
    expect(failedIds(report)).toEqual(['frames.dedup-history', 'frames.history-after']);
  }, 60_000);

  it('exits 2 on unusable arguments', async () => {
    const run = await runCli(['not a url']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/not a URL/);
  }, 60_000);
});
