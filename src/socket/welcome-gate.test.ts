import { describe, expect, it } from 'vitest';
import { WelcomeGate } from './welcome-gate.js';

/** A gate over plain state the test changes. */
function gate(state: { salt?: string; exempt?: boolean; expecting?: boolean } = {}) {
  const s = { salt: 'salt-1' as string | undefined, exempt: false, expecting: true, ...state };
  const g = new WelcomeGate({ saltKey: () => s.salt, exempt: () => s.exempt, expecting: () => s.expecting });
  return { g, s };
}

/** Whether `p` settled within a few turns. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true));
  for (let i = 0; i < 5; i++) await Promise.resolve();
  return done;
}

describe('WelcomeGate: a visitor call waits for the welcome that binds its key session (protocol §3a)', () => {
  it('holds calls until a welcome binds the current key session, then lets them all go', async () => {
    const { g } = gate();
    const first = g.callsReady();
    const upload = g.welcomed();
    expect(await settled(first)).toBe(false);
    expect(await settled(upload)).toBe(false);
    g.bind();
    expect(g.bound).toBe(true);
    g.release();
    expect(await settled(first)).toBe(true);
    expect(await settled(upload)).toBe(true);
    expect(await settled(g.callsReady())).toBe(true); // bound: at once
  });

  it('a new key session (another salt) is not bound by the old welcome', async () => {
    const { g, s } = gate();
    g.bind();
    s.salt = 'salt-2';
    expect(g.bound).toBe(false);
    expect(await settled(g.callsReady())).toBe(false);
    // before a key exchange nothing is bound, even against an unset salt
    const fresh = gate({ salt: undefined }).g;
    fresh.bind();
    expect(fresh.bound).toBe(false);
  });

  it('does not hold an exempt call (agent, follower with the leader key session) nor one no welcome will answer', async () => {
    expect(await settled(gate({ exempt: true }).g.callsReady())).toBe(true);
    expect(await settled(gate({ expecting: false }).g.callsReady())).toBe(true);
  });

  it('release() lets waiting calls go without binding (a disconnect, a halted connection, destroy)', async () => {
    const { g } = gate();
    const call = g.callsReady();
    await Promise.resolve();
    await Promise.resolve();
    g.release();
    expect(await settled(call)).toBe(true);
    expect(g.bound).toBe(false);
  });
});
