/**
 * An upload queue bound to a client's upload calls, chunk size and texts.
 * @module
 */
import type { I18nKey } from '../i18n/index.js';
import type { ImClientLimits } from '../options.js';
import type { UploadTransport } from './types.js';
import { Uploader, type UploaderOptions } from './uploader.js';

/** The part of an `ImClient` that {@link createUploader} uses. */
export interface UploaderHost {
  /** The upload calls (the client's `PermitApi`). */
  readonly api: UploadTransport;
  /** The client's limits (`chunkSize`). */
  readonly limits: Readonly<Pick<ImClientLimits, 'chunkSize'>>;
  /** Translates an interface text into the client's current language. */
  t(key: I18nKey): string;
}

/**
 * Creates an upload queue bound to a client: its upload endpoints (`client.api`), its chunk size
 * and its texts in the current language (spec §5 defaults: unlimited count and size, images only).
 *
 * ```ts
 * import { createUploader } from '@kefu-im/sdk/upload';
 * const uploader = createUploader(client, { accept: 'image/*,video/*', autoStart: true });
 * uploader.on('uploaded', ({ item, file }) => client.sendFile(file, item.kind));
 * uploader.add(input.files ?? []);
 * ```
 * @param client - the `ImClient` (or anything with its `api`, `limits.chunkSize` and `t`)
 * @param options - count, size and type limits and behaviour
 * @throws TypeError when `client` has no upload calls, RangeError for bad limits (as {@link Uploader})
 */
export function createUploader(client: UploaderHost, options: Partial<Omit<UploaderOptions, 'transport'>> = {}): Uploader {
  if (!client || typeof client.t !== 'function') throw new TypeError('createUploader: expected an ImClient.');
  return new Uploader({ chunkSize: client.limits.chunkSize, translate: (key) => client.t(key), ...options, transport: client.api });
}
