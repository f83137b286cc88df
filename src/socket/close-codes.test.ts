import { describe, expect, it, vi } from 'vitest';
import { fixedDelayPolicy, type ReconnectContext } from '../options.js';
import { CloseCode } from '../codes.js';
import { CloseCodeHandler, haltReasonOf, isTerminalClose } from './close-codes.js';

/** A reconnect context of a visible, online page after `closeCode`. */
function after(closeCode: number, attempt: number): ReconnectContext {
  return { attempt, closeCode, elapsedMs: 0, reason: 'close', visible: true, online: true };
}

describe('close codes (docs/protocol.md): 4001 re-keys, 4003 never reconnects, refusals count as attempts', () => {
  it('4003 (banned): the policy is never asked, no reconnect', () => {
    const policy = vi.fn(fixedDelayPolicy(5000, 10));
    expect(new CloseCodeHandler({ forgetKeys: () => undefined }).wrap(policy)(after(CloseCode.Banned, 1))).toBeNull();
    expect(policy).not.toHaveBeenCalled();
  });

  it('1012 (a draining server): the first retry goes at once, later ones follow the policy', () => {
    const policy = new CloseCodeHandler({ forgetKeys: () => undefined }).wrap(fixedDelayPolicy(5000, 10));
    expect(policy(after(CloseCode.ServiceRestart, 1))).toBe(0);
    expect(policy(after(CloseCode.ServiceRestart, 2))).toBe(5000);
    expect(policy(after(1001, 1))).toBe(5000);
  });

  it('1013 (too many frames before admission): a normal reconnect with the usual backoff, keys and identity kept', () => {
    const forgetKeys = vi.fn();
    const identityRefused = vi.fn();
    const tooManyConnections = vi.fn();
    const codes = new CloseCodeHandler({ forgetKeys, identityRefused, tooManyConnections });
    const policy = codes.wrap(fixedDelayPolicy(5000, 10));
    codes.handleClose(CloseCode.TryAgainLater);
    expect(policy(after(CloseCode.TryAgainLater, 1))).toBe(5000);
    expect(policy(after(CloseCode.TryAgainLater, 2))).toBe(5000);
    expect([forgetKeys, identityRefused, tooManyConnections].map((fn) => fn.mock.calls.length)).toEqual([0, 0, 0]);
    expect(codes.refusals).toBe(0);
    expect(isTerminalClose(CloseCode.TryAgainLater)).toBe(false);
    expect(haltReasonOf(CloseCode.TryAgainLater)).toBe('gave-up');
  });

  it('4001 forgets the keys and counts refusals in a row, so a wrong key gives up after the limit', () => {
    const forgetKeys = vi.fn();
    const codes = new CloseCodeHandler({ forgetKeys });
    const policy = codes.wrap(fixedDelayPolicy(5000, 3));
    for (let i = 0; i < 3; i++) codes.handleClose(CloseCode.Unauthorized);
    expect(forgetKeys).toHaveBeenCalledTimes(3);
    // every refused socket had opened, so the transport says attempt 1 each time
    expect(policy(after(CloseCode.Unauthorized, 1))).toBe(5000);
    codes.handleClose(CloseCode.Unauthorized);
    expect(policy(after(CloseCode.Unauthorized, 1))).toBeNull();
  });

  it('the first 4001 in a row connects again at once (with a new key session: the server forgot the old one), the next ones wait', () => {
    const codes = new CloseCodeHandler({ forgetKeys: () => undefined });
    const policy = codes.wrap(fixedDelayPolicy(5000, 3), 3);
    codes.handleClose(CloseCode.Unauthorized);
    expect(policy(after(CloseCode.Unauthorized, 1))).toBe(0);
    codes.handleClose(CloseCode.Unauthorized);
    expect(policy(after(CloseCode.Unauthorized, 1))).toBe(5000);
    codes.reset();
    codes.handleClose(CloseCode.Unauthorized);
    expect(policy(after(CloseCode.Unauthorized, 1))).toBe(0);
  });

  it('a welcome, a manual connect or the network coming back starts counting again; other codes pass through', () => {
    const codes = new CloseCodeHandler({ forgetKeys: () => undefined });
    const policy = codes.wrap(fixedDelayPolicy(5000, 1));
    codes.handleClose(CloseCode.Unauthorized);
    codes.handleClose(CloseCode.Unauthorized);
    expect(codes.refusals).toBe(2);
    codes.reset();
    expect(policy(after(CloseCode.Unauthorized, 1))).toBe(5000);
    codes.handleClose(1006);
    expect(codes.refusals).toBe(0);
    expect(policy(after(1006, 2))).toBeNull();
  });

  it('4004 (identity refused): the keeper is told; a new identity connects at once, a refused fresh one stops', () => {
    let givenUp = false;
    const identityRefused = vi.fn();
    const codes = new CloseCodeHandler({ forgetKeys: () => undefined, identityRefused, identityGivenUp: () => givenUp });
    const policy = codes.wrap(fixedDelayPolicy(5000, 10));
    codes.handleClose(CloseCode.IdentityRefused);
    expect(identityRefused).toHaveBeenCalledTimes(1);
    expect(policy(after(CloseCode.IdentityRefused, 1))).toBe(0);
    givenUp = true;
    expect(policy(after(CloseCode.IdentityRefused, 1))).toBeNull();
  });

  it('4005 (too many connections): the policy is never asked, no reconnect by itself; the client is told', () => {
    const policy = vi.fn(fixedDelayPolicy(5000, 10));
    const tooManyConnections = vi.fn();
    const codes = new CloseCodeHandler({ forgetKeys: () => undefined, tooManyConnections });
    codes.handleClose(CloseCode.TooManyConnections);
    expect(tooManyConnections).toHaveBeenCalledTimes(1);
    expect(codes.wrap(policy)(after(CloseCode.TooManyConnections, 1))).toBeNull();
    expect(policy).not.toHaveBeenCalled();
    // only 4003 is terminal: the page or the network coming back may try a 4005 again
    expect(isTerminalClose(CloseCode.TooManyConnections)).toBe(false);
    expect(isTerminalClose(CloseCode.Banned)).toBe(true);
  });

  it('a halt says why: the close code of the last attempt names the reason', () => {
    expect(haltReasonOf(CloseCode.Banned)).toBe('banned');
    expect(haltReasonOf(CloseCode.TooManyConnections)).toBe('too-many-connections');
    expect(haltReasonOf(CloseCode.IdentityRefused)).toBe('identity-refused');
    expect(haltReasonOf(CloseCode.Unauthorized)).toBe('unauthorized');
    expect(haltReasonOf(CloseCode.Abnormal)).toBe('gave-up');
    expect(haltReasonOf(undefined)).toBe('gave-up');
  });
});
