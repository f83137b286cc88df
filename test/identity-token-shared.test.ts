/**
 * A tab that followed a log-in made in another tab has no `getIdentityToken` of its own: the
 * leader tab shares the member's token (protocol §3b; docs/tabs.md), and `IdentityTokens` sends it
 * when this tab connects on its own (it leads after the member's tab closed). Unit tests of the
 * token keeper with fake timers; test/integration/tabs-identity.test.ts runs the tabs against the
 * reference server.
 */
import { describe, expect, it, vi } from 'vitest';
import { IdentityTokens, MAX_IDENTITY_TOKEN_LENGTH } from '../src/identity-token.js';
import type { IdentityTokenSource } from '../src/options.js';
import { defaultTimers } from '../src/timers.js';

const DATA = { role: 'visitor', mchId: 'M1001' };

function keeper(source?: IdentityTokenSource) {
  const refusals: { reason: string; retrying: boolean }[] = [];
  const tokens = new IdentityTokens({ source, timers: defaultTimers, now: () => Date.now(), timeout: 1_000, onRefused: (r) => refusals.push(r), reportError: () => undefined });
  return { tokens, refusals };
}

describe('a token shared by the leader tab', () => {
  it('without a source of its own, the shared token travels as d.identityToken and is the one this tab shares on', async () => {
    const { tokens } = keeper();
    expect(await tokens.connectData(DATA)).toEqual(DATA);
    expect(tokens.current).toBeNull();
    tokens.adopt('shared.jwt.token');
    expect(await tokens.connectData(DATA)).toEqual({ ...DATA, identityToken: 'shared.jwt.token' });
    expect(tokens.current).toBe('shared.jwt.token');
    // a later snapshot brings the leader's refreshed token
    tokens.adopt('fresher.jwt.token');
    expect(await tokens.connectData(DATA)).toEqual({ ...DATA, identityToken: 'fresher.jwt.token' });
  });

  it("the tab's own source's token wins, its null does not; an agent's connect carries none", async () => {
    const source = vi.fn(() => Promise.resolve('own.jwt.token'));
    const { tokens } = keeper(source);
    tokens.adopt('shared.jwt.token');
    expect(await tokens.connectData(DATA)).toEqual({ ...DATA, identityToken: 'own.jwt.token' });
    expect(tokens.current).toBe('own.jwt.token');
    // a source that has none for this page (it answers null): the shared token goes
    const pageWithout = keeper(() => Promise.resolve(null));
    pageWithout.tokens.adopt('shared.jwt.token');
    expect(await pageWithout.tokens.connectData(DATA)).toEqual({ ...DATA, identityToken: 'shared.jwt.token' });
    expect(pageWithout.tokens.current).toBe('shared.jwt.token');
    const anonymous = keeper();
    anonymous.tokens.adopt('shared.jwt.token');
    expect(await anonymous.tokens.connectData({ role: 'agent', identityToken: 'x' })).toEqual({ role: 'agent' });
  });

  it('is forgotten when the member logs out (reset: setSource(undefined)), when told to (adopt(null)) and when refused', async () => {
    const { tokens, refusals } = keeper();
    tokens.adopt('shared.jwt.token');
    tokens.setSource(undefined);
    expect(await tokens.connectData(DATA)).toEqual(DATA);

    tokens.adopt('shared.jwt.token');
    tokens.adopt(null);
    expect(tokens.current).toBeNull();

    tokens.adopt('expired.jwt.token');
    expect(tokens.onRefused('expired')).toBe(true);
    expect(refusals).toEqual([{ reason: 'expired', retrying: true }]);
    // the retry goes without it (the server then refuses the member id: the tab starts anonymous)
    expect(await tokens.connectData(DATA)).toEqual(DATA);
  });

  it('an empty, oversized or non-string token is not kept', async () => {
    const { tokens } = keeper();
    for (const bad of ['', 'x'.repeat(MAX_IDENTITY_TOKEN_LENGTH + 1), 42 as unknown as string]) {
      tokens.adopt(bad);
      expect(tokens.current).toBeNull();
      expect(await tokens.connectData(DATA)).toEqual(DATA);
    }
    tokens.adopt('x'.repeat(MAX_IDENTITY_TOKEN_LENGTH));
    expect(tokens.current).toHaveLength(MAX_IDENTITY_TOKEN_LENGTH);
  });
});
