/**
 * The persisted global client state (spec §3 "Global client state").
 *
 * Storage layout (kept compatible with the spec's names):
 *
 * | key | value |
 * |---|---|
 * | `uuid` | the client id, a plain string |
 * | `clientSecret` | the secret the server gave when this client id was claimed (protocol §3a), a plain string |
 * | `paramsData` | JSON of the entry parameters object |
 * | `language` | the chosen language code, a plain string (e.g. `en`) |
 * | `kefu-im:state` | JSON `{ merchantInfo, leaveMessage }` |
 *
 * Language: the state's `language` starts at `'no'` ("none chosen yet", spec §3) on every load,
 * whatever is stored; start-up sets it, normally to {@link ClientStateStore.getStoredLanguage}
 * (the stored language, `zh` when none is stored or it is not supported). Once it holds a
 * supported language, that language is written under `language`; `'no'` is never written.
 * @module
 */
import type { StorageLike } from '../options.js';
import { FALLBACK_LANGUAGE, isLanguage, normalizeLanguage, type Language } from '../i18n/languages.js';
import { safeStorage } from './storage.js';
import { createStore, type Store } from './store.js';

/** The global client state (spec §3). */
export interface ClientState {
  /** The interface language; `'no'` until start-up sets it. */
  language: string;
  /** The client id, kept in storage under `uuid` (the `u` of the connect payload). */
  uuid: string;
  /**
   * The secret that proves `uuid` is ours (protocol §3a), kept in storage under `clientSecret`;
   * `null` while the server gave none (a server without identity binding never does).
   */
  clientSecret: string | null;
  /** The entry parameters, kept in storage as JSON under `paramsData`; `null` when none. */
  paramsData: Record<string, unknown> | null;
  /** The merchant info from `getMerchantById`; `null` until loaded. */
  merchantInfo: Record<string, unknown> | null;
  /** Whether the visitor is leaving a message (no agent online). */
  leaveMessage: boolean;
}

/** Storage keys of the client state. */
export const CLIENT_STATE_KEYS = Object.freeze({
  /** The client id (spec §3). */
  uuid: 'uuid',
  /** The client id's secret (protocol §3a). */
  clientSecret: 'clientSecret',
  /** The entry parameters, as JSON (spec §3). */
  paramsData: 'paramsData',
  /** The chosen language. */
  language: 'language',
  /** Merchant info and the leave-message flag, as JSON. */
  state: 'kefu-im:state',
} as const);

/** The value of `language` before start-up chose one (spec §3). */
export const NO_LANGUAGE = 'no';

/** The client id and its secret as storage holds them (`null` when absent). */
export interface StoredIdentity {
  /** The stored client id. */
  uuid: string | null;
  /** The stored secret of that client id (protocol §3a). */
  clientSecret: string | null;
}

/** Options of {@link createClientState}. */
export interface ClientStateOptions {
  /** Where the state is kept (see `resolveStorage`). */
  storage: StorageLike;
  /** Makes a new client id when none is stored (e.g. `crypto.randomUUID`). */
  createId: () => string;
  /** Told about storage reads/writes that failed (quota, disabled storage); they never throw. */
  onError?: (error: unknown) => void;
}

/** The client state store: a {@link Store} of {@link ClientState} plus a few helpers. */
export interface ClientStateStore extends Store<ClientState> {
  /**
   * The stored language (key `language`), normalised; `zh` when none is stored or it is not
   * supported (spec §3: "the stored language defaults to zh, fallback zh").
   */
  getStoredLanguage(): Language;
  /** Sets the entry parameters (persisted as JSON); `null` removes them. */
  setParamsData(paramsData: Record<string, unknown> | null): void;
  /** Sets the merchant info (persisted); `null` clears it. */
  setMerchantInfo(merchantInfo: Record<string, unknown> | null): void;
  /** Sets the leave-message flag (persisted). */
  setLeaveMessage(leaveMessage: boolean): void;
  /**
   * The client id and secret as storage holds them now (another tab may have written them since
   * this state was restored).
   */
  readStoredIdentity(): StoredIdentity;
  /** Stops persisting changes (the state stays readable). */
  destroy(): void;
}

/** A plain object, not an array. */
function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Reads JSON, `undefined` when absent or corrupt. */
function readJson(storage: StorageLike, key: string): unknown {
  const text = storage.getItem(key);
  if (text === null || text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Restores the state from storage, generating and storing the uuid when missing. */
function restore(storage: StorageLike, createId: () => string): ClientState {
  let uuid = storage.getItem(CLIENT_STATE_KEYS.uuid);
  if (typeof uuid !== 'string' || uuid.trim() === '') {
    uuid = createId();
    if (typeof uuid !== 'string' || uuid === '') throw new TypeError('createClientState: createId must return a non-empty string');
    storage.setItem(CLIENT_STATE_KEYS.uuid, uuid);
    storage.removeItem(CLIENT_STATE_KEYS.clientSecret); // a secret left without its id proves nothing
  }
  const secret = storage.getItem(CLIENT_STATE_KEYS.clientSecret);
  const paramsData = readJson(storage, CLIENT_STATE_KEYS.paramsData);
  const saved = readJson(storage, CLIENT_STATE_KEYS.state);
  const merchantInfo = isRecord(saved) && isRecord(saved.merchantInfo) ? saved.merchantInfo : null;
  const leaveMessage = isRecord(saved) && typeof saved.leaveMessage === 'boolean' ? saved.leaveMessage : false;
  return {
    language: NO_LANGUAGE,
    uuid,
    clientSecret: typeof secret === 'string' && secret !== '' ? secret : null,
    paramsData: isRecord(paramsData) ? paramsData : null,
    merchantInfo,
    leaveMessage,
  };
}

/** Writes JSON, or removes the key for `null`. */
function writeJson(storage: StorageLike, key: string, value: unknown, onError?: (error: unknown) => void): void {
  if (value === null || value === undefined) {
    storage.removeItem(key);
    return;
  }
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    onError?.(error); // e.g. a cyclic object: keep what was stored before
    return;
  }
  storage.setItem(key, text);
}

/**
 * Creates the client state, restored from `storage` (spec §3: "The state is persisted to local
 * storage and restored on load") and persisted on every change:
 * - `uuid` from key `uuid`, generated with `createId` and stored when missing;
 * - `paramsData` from the JSON under `paramsData` (corrupt JSON or a non-object gives `null`);
 * - `merchantInfo` and `leaveMessage` from the JSON under `kefu-im:state`;
 * - `language` is `'no'` until set (see the module notes); the stored language is read with
 *   {@link ClientStateStore.getStoredLanguage}.
 *
 * Storage failures never throw (they go to `onError`); a `createId` that returns no string does.
 * @example
 * const state = createClientState({ storage: resolveStorage(), createId: () => crypto.randomUUID() });
 * state.setState({ language: state.getStoredLanguage() });
 */
export function createClientState(options: ClientStateOptions): ClientStateStore {
  if (!options || typeof options.createId !== 'function' || typeof options.storage !== 'object' || options.storage === null) {
    throw new TypeError('createClientState: expected { storage, createId }');
  }
  const { onError } = options;
  const storage = safeStorage(options.storage, onError);
  const store = createStore<ClientState>(restore(storage, options.createId));

  const unsubscribe = store.subscribe((state, prev) => {
    if (state.uuid !== prev.uuid && typeof state.uuid === 'string' && state.uuid !== '') storage.setItem(CLIENT_STATE_KEYS.uuid, state.uuid);
    if (state.clientSecret !== prev.clientSecret || state.uuid !== prev.uuid) {
      if (typeof state.clientSecret === 'string' && state.clientSecret !== '') storage.setItem(CLIENT_STATE_KEYS.clientSecret, state.clientSecret);
      else storage.removeItem(CLIENT_STATE_KEYS.clientSecret);
    }
    if (state.paramsData !== prev.paramsData) writeJson(storage, CLIENT_STATE_KEYS.paramsData, state.paramsData, onError);
    if (state.language !== prev.language && isLanguage(state.language)) storage.setItem(CLIENT_STATE_KEYS.language, state.language);
    if (state.merchantInfo !== prev.merchantInfo || state.leaveMessage !== prev.leaveMessage) {
      writeJson(storage, CLIENT_STATE_KEYS.state, { merchantInfo: state.merchantInfo, leaveMessage: state.leaveMessage }, onError);
    }
  });

  return {
    ...store,
    getStoredLanguage: () => normalizeLanguage(storage.getItem(CLIENT_STATE_KEYS.language)) ?? FALLBACK_LANGUAGE,
    setParamsData: (paramsData) => store.setState({ paramsData: isRecord(paramsData) ? paramsData : null }),
    setMerchantInfo: (merchantInfo) => store.setState({ merchantInfo: isRecord(merchantInfo) ? merchantInfo : null }),
    setLeaveMessage: (leaveMessage) => store.setState({ leaveMessage: leaveMessage === true }),
    readStoredIdentity: () => ({ uuid: storage.getItem(CLIENT_STATE_KEYS.uuid), clientSecret: storage.getItem(CLIENT_STATE_KEYS.clientSecret) }),
    destroy: unsubscribe,
  };
}
