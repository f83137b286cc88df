import { describe, expect, it, vi } from 'vitest';
import { fixedDelayPolicy } from '../options.js';
import { CLOSE_BANNED, CLOSE_UNAUTHORIZED, CloseCodeHandler } from './close-codes.js';

describe('close codes (docs/protocol.md): 4001 re-keys, 4003 never reconnects, refusals count as attempts', () => {
  it('4003 (banned): the policy is never asked, no reconnect', () => {
    const policy = vi.fn(fixedDelayPolicy(5000, 10));
    expect(new CloseCodeHandler({ forgetKeys: () => undefined }).wrap(policy)({ attempt: 1, closeCode: CLOSE_BANNED })).toBeNull();
    expect(policy).not.toHaveBeenCalled();
  });

  it('4001 forgets the keys and counts refusals in a row, so a wrong key gives up after the limit', () => {
    const forgetKeys = vi.fn();
    const codes = new CloseCodeHandler({ forgetKeys });
    const policy = codes.wrap(fixedDelayPolicy(5000, 3));
    for (let i = 0; i < 3; i++) codes.handleClose(CLOSE_UNAUTHORIZED);
    expect(forgetKeys).toHaveBeenCalledTimes(3);
    // every refused socket had opened, so the transport says attempt 1 each time
    expect(policy({ attempt: 1, closeCode: CLOSE_UNAUTHORIZED })).toBe(5000);
    codes.handleClose(CLOSE_UNAUTHORIZED);
    expect(policy({ attempt: 1, closeCode: CLOSE_UNAUTHORIZED })).toBeNull();
  });

  it('a welcome, a manual connect or the network coming back starts counting again; other codes pass through', () => {
    const codes = new CloseCodeHandler({ forgetKeys: () => undefined });
    const policy = codes.wrap(fixedDelayPolicy(5000, 1));
    codes.handleClose(CLOSE_UNAUTHORIZED);
    codes.handleClose(CLOSE_UNAUTHORIZED);
    expect(codes.refusals).toBe(2);
    codes.reset();
    expect(policy({ attempt: 1, closeCode: CLOSE_UNAUTHORIZED })).toBe(5000);
    codes.handleClose(1006);
    expect(codes.refusals).toBe(0);
    expect(policy({ attempt: 2, closeCode: 1006 })).toBeNull();
  });
});
