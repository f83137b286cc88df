/**
 * The server clock (spec §7 getServerTime, §9 tick 1000 ms; protocol §1.2 and §5).
 * @module
 */
import { Subscribable } from './state/subscribable.js';
import { Disposables, type Disposer, type TimerProvider } from './timers.js';

/** Options of {@link ServerClock}. */
export interface ServerClockOptions {
  /** Timer functions (looked up at call time, so fake timers work). */
  timers: TimerProvider;
  /** The tick, ms (spec §9: 1 000). */
  tick: number;
  /** Receives an exception thrown by a subscriber (the clock itself never throws from a tick). */
  onError?: (error: unknown) => void;
}

/** Throws a clear error unless `value` is a finite number. */
function assertFinite(value: unknown, what: string): asserts value is number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new RangeError(`ServerClock: ${what} must be a finite number of milliseconds, got ${String(value)}.`);
  }
}

/**
 * The server's time as the client knows it.
 *
 * `getServerTime` seeds it with {@link ServerClock.sync} (the server time plus half the measured
 * round trip, protocol §1.2); heartbeat replies and the welcome (types 51 and 60) reset it from
 * their `sm` with {@link ServerClock.reset}. Between two resets the clock advances in whole
 * ticks: {@link ServerClock.now} is the last reset value plus `tick` ms for every full tick of
 * local time elapsed since. The elapsed ticks are counted from the local clock rather than from
 * the interval's callbacks, so a throttled background tab does not make the clock fall behind.
 *
 * For `useSyncExternalStore`: {@link ServerClock.subscribe} and {@link ServerClock.getSnapshot};
 * the snapshot is a cached number that changes once per tick. The tick's interval runs only while
 * the clock is started (by the first sync/reset, or {@link ServerClock.start}) and someone
 * listens: without listeners no timer runs, and {@link ServerClock.now} and
 * {@link ServerClock.getSnapshot} are computed from the local clock when read.
 */
export class ServerClock extends Subscribable<(now: number) => void> {
  private readonly timers: TimerProvider;
  private readonly tick: number;
  private readonly disposables: Disposables;
  /** Server time at the last sync/reset, or null when never synced. */
  private base: number | null = null;
  /** Local time (timers.now()) at the last sync/reset. */
  private syncedAt = 0;
  private snapshot: number;
  private stopTicking: Disposer | null = null;
  /** True between start() (or a sync/reset) and stop(). */
  private running = false;
  private destroyed = false;

  /**
   * @param options - timers and the tick length
   * @throws RangeError when `tick` is not a positive finite number
   */
  constructor(options: ServerClockOptions) {
    if (typeof options?.tick !== 'number' || !Number.isFinite(options.tick) || options.tick <= 0) {
      throw new RangeError(`ServerClock: tick must be a positive number of milliseconds, got ${String(options?.tick)}.`);
    }
    // A subscriber's exception goes to onError (or is dropped): a tick never throws.
    super(options.onError ?? (() => undefined));
    this.timers = options.timers;
    this.tick = options.tick;
    this.disposables = new Disposables(this.timers);
    this.snapshot = this.timers.now();
  }

  /**
   * Seeds the clock from `getServerTime`: now = `serverTime + roundTripMs / 2`, and starts ticking.
   * @param serverTime - the server's answer, ms since the epoch
   * @param roundTripMs - the measured duration of the request, ms (negative values count as 0)
   * @throws RangeError when either value is not a finite number
   */
  sync(serverTime: number, roundTripMs: number): void {
    assertFinite(serverTime, 'serverTime');
    assertFinite(roundTripMs, 'roundTripMs');
    this.set(serverTime + Math.max(0, roundTripMs) / 2);
  }

  /**
   * Resets the clock to a server time carried by a message (`sm` of types 51 and 60), and starts
   * ticking.
   * @param sm - server time, ms since the epoch
   * @throws RangeError when `sm` is not a finite number
   */
  reset(sm: number): void {
    assertFinite(sm, 'sm');
    this.set(sm);
  }

  /**
   * The current server time, ms: the last synced value plus the whole ticks elapsed since.
   * Before the first sync this is the local time (`timers.now()`).
   */
  now(): number {
    if (this.base === null) return this.timers.now();
    const elapsed = Math.max(0, this.timers.now() - this.syncedAt);
    return this.base + Math.floor(elapsed / this.tick) * this.tick;
  }

  /** Server time minus local time, ms (0 before the first sync). */
  get offset(): number {
    if (this.base === null) return 0;
    return this.base - this.syncedAt;
  }

  /** True once synced or reset at least once. */
  get synced(): boolean {
    return this.base !== null;
  }

  /**
   * Starts the tick that refreshes the snapshot and notifies subscribers (no-op when running). The
   * interval itself runs only while someone listens.
   */
  start(): void {
    if (this.destroyed) return;
    this.running = true;
    this.syncTicking();
  }

  /** Stops the tick. {@link ServerClock.now} still answers; subscribers are no longer notified. */
  stop(): void {
    this.running = false;
    this.syncTicking();
  }

  /**
   * Calls `listener` with the new time on every tick and after every sync/reset.
   * @returns the unsubscribe function
   */
  override subscribe(listener: (now: number) => void): () => void {
    return super.subscribe(listener);
  }

  /**
   * The cached current time for `useSyncExternalStore`; changes once per tick. Without listeners
   * (no tick running) it is brought up to date when read.
   */
  getSnapshot(): number {
    if (!this.hasListeners() && this.base !== null) this.snapshot = this.now();
    return this.snapshot;
  }

  /** Stops the tick for good and forgets every subscriber. */
  destroy(): void {
    this.destroyed = true;
    this.running = false;
    this.stopTicking = null;
    this.disposables.dispose();
    this.clearListeners();
  }

  protected override onSubscribe(): void {
    // The first listener gets an up-to-date snapshot (useSyncExternalStore re-reads it after subscribing).
    if (this.listenerCount === 1 && this.base !== null) this.snapshot = this.now();
    this.syncTicking();
  }

  protected override onUnsubscribe(): void {
    this.syncTicking();
  }

  /** Runs the interval exactly while started, not destroyed and listened to. */
  private syncTicking(): void {
    const wanted = this.running && !this.destroyed && this.hasListeners();
    if (wanted && !this.stopTicking) {
      this.stopTicking = this.disposables.interval(() => this.onTick(), this.tick);
    } else if (!wanted && this.stopTicking) {
      const stop = this.stopTicking;
      this.stopTicking = null;
      stop();
    }
  }

  private set(serverNow: number): void {
    if (this.destroyed) return;
    this.base = serverNow;
    this.syncedAt = this.timers.now();
    // Restart the interval so that ticks line up with the moment of the reset.
    this.stop();
    this.start();
    this.publish();
  }

  private onTick(): void {
    if (this.now() !== this.snapshot) this.publish();
  }

  private publish(): void {
    this.snapshot = this.now();
    this.notify(this.snapshot);
  }
}
