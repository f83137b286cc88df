/**
 * AES-ECB (and its cipher library) loads with the keys, not with the page: the client's start-up
 * loads it while the key exchange runs, an encrypted HTTP call loads it before it is sent, and the
 * `@kefu-im/sdk/protocol` entry provides it up front. Frame encoding and decoding, which must stay
 * synchronous, use what is loaded.
 * @module
 * @internal
 */

import { lazy } from '../lazy.js';

/** The AES-ECB helpers. @internal */
export type AesEcbModule = typeof import('./aes-ecb.js');

let loaded: AesEcbModule | undefined;
const load = lazy(() => import('./aes-ecb.js').then((m) => (loaded = m)));

/** Loads the AES-ECB helpers (once; again after a failed load). @internal */
export function loadAesEcb(): Promise<AesEcbModule> {
  return loaded ? Promise.resolve(loaded) : load();
}

/** Makes already imported helpers available (the protocol entry, tests). @internal */
export function provideAesEcb(m: AesEcbModule): void {
  loaded = m;
}

/**
 * The loaded AES-ECB helpers.
 * @throws Error when they are not loaded yet (start the client, or `await loadAesEcb()`)
 * @internal
 */
export function aesEcb(): AesEcbModule {
  if (!loaded) throw new Error('AES-ECB is not loaded yet: start the client (or await loadAesEcb()) first.');
  return loaded;
}
