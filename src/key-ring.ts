/**
 * The key session of a client: runs the start-up key exchange once (again after a failure or a
 * refused connect), encodes frames with it (the socket link decodes them with its user key), and
 * builds the socket URL.
 * @module
 */
import type { ServerClock } from './clock.js';
import { asError } from './errors.js';
import type { PermitApi } from './http/permit-api.js';
import { lazy } from './lazy.js';
import type { ChatMessage } from './messages/types.js';
import { encodeFrame } from './socket/frame-encode.js';
import type { KeySession, StartupResult } from './startup.js';
import type { TimerProvider } from './timers.js';

// The key exchange (AES-GCM, the key reveal) loads with its first run: start-up is async anyway.
const loadStartup = lazy(() => import('./startup.js'));
// RSA, HMAC and the connect parameters load at the first connect, not at start-up.
const loadConnectParams = lazy(() => import('./socket/connect-params.js'));

/** What the key ring needs. @internal */
export interface KeyRingDeps {
  api: PermitApi;
  clock: ServerClock;
  timers: TimerProvider;
}

/** The connect parameters' inputs besides the keys. @internal */
export interface SocketUrlInput {
  socketKey: string;
  socketUrl: string;
  clientId: string;
  data: Record<string, unknown>;
}

/** Holds the key session and the user token of one client. @internal */
export class KeyRing {
  /** The key session, once the start-up exchange succeeded. */
  keys: KeySession | null = null;
  /** The user token and salt key, known as soon as the token is decrypted. */
  token: { userKey: string; saltKey: string } | null = null;
  private startPromise: Promise<StartupResult> | null = null;

  /** @param deps - the permit API, the clock and the timers */
  constructor(private readonly deps: KeyRingDeps) {}

  /**
   * Runs the key exchange, with `alongside` in parallel, and tells `report` the errors of the
   * steps that failed; calling again returns the same promise (in flight, or done with keys)
   * unless the keys failed to load.
   */
  load(alongside: () => Promise<unknown>, report: (errors: Error[]) => void): Promise<StartupResult> {
    if (this.startPromise) return this.startPromise;
    const run = async (): Promise<StartupResult> => {
      const { api, clock, timers } = this.deps;
      const exchange = loadStartup().then(
        ({ runStartup }) => runStartup(api, clock, timers, (token) => (this.token = token)),
        (e: unknown): StartupResult => ({ session: null, serverTime: null, errors: [asError(e)] }),
      );
      // The connect's code (RSA, HMAC) loads while the exchange waits for the network: the first
      // connect follows start-up, and on a slow phone a chain of chunk loads costs more than bytes.
      loadConnectParams().catch(() => undefined);
      const [result] = await Promise.all([exchange, alongside()]);
      if (result.session) this.keys = result.session;
      else this.startPromise = null; // the keys failed: the next call tries again
      report(result.errors);
      return result;
    };
    const promise = run();
    this.startPromise = promise;
    return promise;
  }

  /** Forgets the key session (a refused connect): the next load runs the exchange again. */
  forget(): void {
    this.keys = null;
    this.token = null;
    this.startPromise = null;
  }

  /** Encodes a message into a frame, encrypted when the AES switch is on. */
  encode(message: ChatMessage): string {
    return encodeFrame(message, this.keys?.aesSwitch ? this.keys.userKey : undefined);
  }

  /**
   * The socket URL with the connect parameters (protocol §3). RSA, HMAC and the connect
   * parameters load at the first connect, not at start-up.
   * @returns null when the keys are not loaded
   */
  async socketUrl(input: SocketUrlInput): Promise<string | null> {
    if (!this.keys) return null;
    const { buildConnectParams, buildSocketUrl } = await loadConnectParams();
    const { params } = await buildConnectParams({
      socketKey: input.socketKey,
      clientId: input.clientId,
      saltKey: this.keys.saltKey,
      data: input.data,
    });
    return buildSocketUrl(input.socketUrl, params);
  }
}
