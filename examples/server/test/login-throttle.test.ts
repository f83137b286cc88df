/** The agent login throttle as a pure unit with an injected clock. */
import { describe, expect, it } from 'vitest';
import { LoginThrottle } from '../src/agents/throttle.js';

const options = { freeFailures: 3, baseDelayMs: 500, maxDelayMs: 30_000, lockoutAfter: 10, lockoutMs: 15 * 60_000 };

describe('LoginThrottle: growing waits per account and per address, then a lockout', () => {
  it('waits 0, 0, 0, 0.5 s, 1 s, 2 s, ... capped, and locks after 10 failures', () => {
    const throttle = new LoginThrottle(options);
    expect([1, 2, 3, 4, 5, 6, 7, 9].map((f) => throttle.delayAfter(f))).toEqual([0, 0, 0, 500, 1000, 2000, 4000, 16_000]);
    expect(new LoginThrottle({ ...options, lockoutAfter: 100 }).delayAfter(20)).toBe(30_000);
    expect(throttle.delayAfter(10)).toBe(15 * 60_000);
  });

  it('refuses attempts inside the wait, for the account from any address and for the address with any account', () => {
    let now = 0;
    const throttle = new LoginThrottle(options, () => now);
    for (let i = 0; i < 4; i += 1) throttle.failed('alice', '10.0.0.1');
    expect(throttle.check('alice', '10.0.0.2')).toEqual({ allowed: false, reason: 'wait', retryAfterMs: 500 });
    expect(throttle.check('bob', '10.0.0.1')).toMatchObject({ allowed: false, reason: 'wait' });
    expect(throttle.check('bob', '10.0.0.2')).toEqual({ allowed: true });
    now = 500;
    expect(throttle.check('alice', '10.0.0.1')).toEqual({ allowed: true });
  });

  it('locks for lockoutMs after lockoutAfter failures, then forgets; a success clears the account only', () => {
    let now = 0;
    const throttle = new LoginThrottle(options, () => now);
    for (let i = 0; i < 10; i += 1) {
      now += 60_000;
      throttle.failed('alice', '10.0.0.1');
    }
    expect(throttle.check('alice', '10.0.0.9')).toMatchObject({ allowed: false, reason: 'locked' });
    now += 15 * 60_000;
    expect(throttle.check('alice', '10.0.0.9')).toEqual({ allowed: true });
    for (let i = 0; i < 5; i += 1) throttle.failed('carol', '10.0.0.5');
    throttle.succeeded('carol');
    expect(throttle.check('carol', '10.0.0.6')).toEqual({ allowed: true });
    expect(throttle.check('dave', '10.0.0.5')).toMatchObject({ allowed: false });
  });
});
