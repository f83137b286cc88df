/**
 * The desk's alert settings (live signals), kept in `localStorage`: the sound (off by default) and
 * the desktop notifications (opt-in: permission is asked only on the agent's click). Also the
 * beep itself: a short WebAudio tone, no asset.
 * @module
 */

/** Where the sound choice is kept ('1' on). */
export const SOUND_KEY = 'kefu.desk.sound';
/** Where the notifications opt-in is kept ('1' on). */
export const NOTIFY_KEY = 'kefu.desk.notify';

/** The storage the settings use (`localStorage` fits). */
export type SettingsStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** The browser's desktop notifications, as far as the desk uses them. */
export interface NotificationApi {
  /** `granted`, `denied` or `default`. */
  readonly permission: NotificationPermission;
  /** Asks the user (only ever on a click). */
  requestPermission(): Promise<NotificationPermission>;
  new (title: string, options?: NotificationOptions): Notification;
}

/** The page's `Notification`, or null where there is none (or in an insecure context). */
export function notificationApi(): NotificationApi | null {
  const api = (globalThis as { Notification?: NotificationApi }).Notification;
  return typeof api === 'function' ? api : null;
}

/** Reads a kept on/off choice (off when missing or unreadable). */
export function readFlag(storage: SettingsStorage | null, key: string): boolean {
  try {
    return storage?.getItem(key) === '1';
  } catch {
    return false;
  }
}

/** Keeps an on/off choice (silently not kept when storage refuses). */
export function writeFlag(storage: SettingsStorage | null, key: string, on: boolean): void {
  try {
    if (on) storage?.setItem(key, '1');
    else storage?.removeItem(key);
  } catch {
    // private mode or full: the choice lasts for this page only
  }
}

/** The page's `localStorage`, or null where it cannot be reached. */
export function pageStorage(): SettingsStorage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

let audio: AudioContext | null = null;

/**
 * Prepares the sound (call it from the click that turns it on: browsers only let audio start
 * from a user gesture).
 */
export function unlockSound(): void {
  try {
    audio ??= new AudioContext();
    void audio.resume();
  } catch {
    audio = null; // no WebAudio: the desk stays silent
  }
}

/** Plays a short two-tone beep (nothing where WebAudio is missing). */
export function beep(): void {
  try {
    audio ??= new AudioContext();
    const at = audio.currentTime;
    const gain = audio.createGain();
    gain.connect(audio.destination);
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.2, at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.3);
    for (const [frequency, start] of [[880, 0], [1320, 0.12]] as const) {
      const tone = audio.createOscillator();
      tone.frequency.value = frequency;
      tone.connect(gain);
      tone.start(at + start);
      tone.stop(at + start + 0.16);
    }
  } catch {
    // no WebAudio
  }
}
