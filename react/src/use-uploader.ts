/**
 * `useUploader`: an upload queue bound to the client, with its items, progress and actions.
 * @module
 */
import type { UploadedFile, UploadItem, UploadSource } from '@kefu-im/sdk';
import { createUploader, type AddFilesResult, type Uploader, type UploaderOptions } from '@kefu-im/sdk/upload';
import { useEffect, useMemo, useRef } from 'react';
import { useImClient } from './context.js';
import { useOwned } from './owned.js';
import { identity, useStoreSelector } from './store-selector.js';

/** Options of {@link useUploader}: the uploader's limits plus two event callbacks. */
export interface UseUploaderOptions extends Partial<Omit<UploaderOptions, 'transport'>> {
  /** Called when an item finished uploading (e.g. to send it: `sendFile(file, item.kind)`). */
  onUploaded?: (item: UploadItem, file: UploadedFile) => void;
  /** Called when an item failed (it stays in the list with status `failed` and its message). */
  onFailed?: (item: UploadItem, error: Error) => void;
}

/** What {@link useUploader} returns. */
export interface UseUploaderResult {
  /** The items in the order added, each with `status`, `progress` (0 to 1), `message`, `objectUrl`. */
  readonly items: readonly UploadItem[];
  /** The uploader itself (events, `get(id)`). */
  readonly uploader: Uploader;
  /**
   * Adds files, checked against `accept`, `maxSize` (an `oversize` event) and `maxCount`.
   * @returns the added items and the refused files with the reason
   */
  add(files: Iterable<UploadSource>): AddFilesResult;
  /** Starts (or restarts a failed) item; resolves with the item, or null when cancelled. */
  start(id: string): Promise<UploadItem | null>;
  /** Starts every item not started yet. */
  startAll(): Promise<(UploadItem | null)[]>;
  /** Uploads a failed item again (a chunked upload resumes). */
  retry(id: string): Promise<UploadItem | null>;
  /** Cancels an item and removes it from the list; false for an unknown id. */
  cancel(id: string): boolean;
}

function destroyUploader(uploader: Uploader): void {
  uploader.destroy();
}

/**
 * Creates an upload queue with `createUploader(client, options)` from `@kefu-im/sdk/upload` (spec §5 limits: `maxCount` and
 * `maxSize` unlimited by default, `accept` images by default; chunked above the client's chunk
 * size) and destroys it on unmount, cancelling what is still uploading. The limits are read once:
 * give the component a new `key` to change them. The callbacks may change on every render.
 *
 * ```tsx
 * const { sendFile } = useSend();
 * const { items, add, cancel } = useUploader({ autoStart: true, onUploaded: (item, file) => sendFile(file, item.kind) });
 * <input type="file" onChange={(e) => add(e.target.files ?? [])} />
 * ```
 * @param options - limits, behaviour and callbacks
 */
export function useUploader(options: UseUploaderOptions = {}): UseUploaderResult {
  const client = useImClient();
  const { onUploaded, onFailed, ...limits } = options;
  const uploader = useOwned<Uploader>(() => createUploader(client, limits), destroyUploader, client);
  const callbacks = useRef({ onUploaded, onFailed });
  useEffect(() => {
    callbacks.current = { onUploaded, onFailed };
  });
  useEffect(() => {
    const uploaded = (ctx: { item: UploadItem; file: UploadedFile }): void => callbacks.current.onUploaded?.(ctx.item, ctx.file);
    const failed = (ctx: { item: UploadItem; error: Error }): void => callbacks.current.onFailed?.(ctx.item, ctx.error);
    uploader.on('uploaded', uploaded);
    uploader.on('failed', failed);
    return () => {
      uploader.off('uploaded', uploaded);
      uploader.off('failed', failed);
    };
  }, [uploader]);
  const items = useStoreSelector(uploader, identity<readonly UploadItem[]>);
  const actions = useMemo(
    () => ({
      add: (files: Iterable<UploadSource>) => uploader.add(files),
      start: (id: string) => uploader.start(id),
      startAll: () => uploader.startAll(),
      retry: (id: string) => uploader.retry(id),
      cancel: (id: string) => uploader.cancel(id),
    }),
    [uploader],
  );
  return { items, uploader, ...actions };
}
