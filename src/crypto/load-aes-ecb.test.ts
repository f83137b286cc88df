import { describe, expect, it } from 'vitest';
import { encodeFrame, FrameError } from '../socket/frame-codec.js';
import { aesEcb, loadAesEcb } from './load-aes-ecb.js';

const KEY = 'abcdefghijklmnopqrstuvwxyz012345';

describe('AES-ECB loads with the keys, not with the page', () => {
  it('before loading, encrypting a frame is a FrameError that says why; plain frames need no cipher; loading once is enough', async () => {
    expect(() => aesEcb()).toThrow(/not loaded yet/);
    expect(encodeFrame({ type: 1, dataContent: '{}' })).toBe('{"type":1,"dataContent":"{}"}');
    let error: unknown;
    try {
      encodeFrame({ type: 1, dataContent: '{}' }, KEY);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(FrameError);
    expect(String((error as FrameError).cause)).toMatch(/AES-ECB is not loaded yet/);
    const [a, b] = await Promise.all([loadAesEcb(), loadAesEcb()]);
    expect(a).toBe(b);
    expect(aesEcb()).toBe(a);
    expect(a.aesEcbDecrypt(KEY, encodeFrame({ type: 1, dataContent: '{}' }, KEY))).toBe('{"type":1,"dataContent":"{}"}');
  });
});
