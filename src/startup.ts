/**
 * The start-up key exchange (protocol §1): server time, then the AES key and the user token, with
 * the AES switch beside them.
 * @module
 */
import { gcmDecrypt } from './crypto/aes-gcm.js';
import { utf8Encode } from './crypto/encoding.js';
import { revealAesKey } from './crypto/key-obfuscation.js';
import { loadAesEcb } from './crypto/load-aes-ecb.js';
import { randomHex } from './crypto/random.js';
import { asError } from './errors.js';
import type { ServerClock } from './clock.js';
import type { PermitApi } from './http/permit-api.js';
import type { TimerProvider } from './timers.js';

/** The security values the client holds after start-up (spec §3 "Security values"). */
export interface KeySession {
  /** The request key drawn for this start-up (32 lowercase hex characters). */
  requestKey: string;
  /** The AES key (32 ASCII characters). */
  aesKey: string;
  /** The decrypted user token (32 characters): the key of (enc) payloads and encrypted frames. */
  userKey: string;
  /** Names this key session on the server (`X-Salt-Key`). */
  saltKey: string;
  /** The AES switch: frames are ECB-encrypted when on. */
  aesSwitch: boolean;
}

/** What the start-up key exchange reports about each step. */
export interface StartupResult {
  /** The key session, or null when the keys could not be loaded. */
  session: KeySession | null;
  /** The server time in ms, or null when it could not be fetched. */
  serverTime: number | null;
  /** The errors of the steps that failed (swallowed per spec §8, reported here). */
  errors: Error[];
}

/**
 * Runs the start-up order of spec §4: fetch the server time (and sync the clock with half the
 * round trip), then load the AES key and the user token, one after the other, and the AES switch
 * beside them. `onToken` is told the decrypted token and salt key as soon as they are known. A
 * failed step does not throw (spec §8: failures are swallowed); it is listed in
 * {@link StartupResult.errors}.
 * @internal
 */
export async function runStartup(
  api: PermitApi,
  clock: ServerClock,
  timers: TimerProvider,
  onToken: (token: { userKey: string; saltKey: string }) => void = () => undefined,
): Promise<StartupResult> {
  const errors: Error[] = [];
  // The frame cipher loads while the key exchange runs (frames are decoded synchronously).
  const cipher = loadAesEcb();
  cipher.catch(() => undefined);
  let serverTime: number | null = null;
  try {
    const sentAt = timers.now();
    serverTime = await api.getServerTime();
    clock.sync(serverTime, Math.max(0, timers.now() - sentAt));
  } catch (e) {
    errors.push(asError(e));
  }
  let session: KeySession | null = null;
  // The switch is the server's, not the key session's (it names none): asked for beside the keys,
  // not after them, it costs the start-up no round trip of its own (~150 ms on a phone's network).
  const aesSwitch = api.switchAES();
  aesSwitch.catch(() => undefined);
  try {
    const requestKey = randomHex(16);
    const aesKey = revealAesKey(await api.getAesKey(requestKey), requestKey);
    const { userToken, saltKey } = await api.getUserToken(requestKey);
    const userKey = await gcmDecrypt(utf8Encode(aesKey), userToken);
    // From here on every call carries X-Salt-Key (protocol §2).
    onToken({ userKey, saltKey });
    const flag = await aesSwitch;
    await cipher;
    session = { requestKey, aesKey, userKey, saltKey, aesSwitch: flag };
  } catch (e) {
    errors.push(asError(e));
  }
  return { session, serverTime, errors };
}
