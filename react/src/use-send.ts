/**
 * `useSend` (send text and files, retry) and `useSendState` (the sending state of one message).
 * @module
 */
import { ImError, type SendInput, type SendState, type StoredMessage, type UploadedFile } from '@kefu-im/sdk';
import { useMemo } from 'react';
import { useImClient } from './context.js';
import { useMessage } from './use-messages.js';

/** Options of a send: recipient, group flag and extra wire fields. */
export type SendOptions = Omit<SendInput, 'dataContent' | 'type'>;

/** What {@link useSend} returns: stable functions that forward to the client. */
export interface SendActions {
  /**
   * Sends a message (`client.send`). It joins the list at once as `pending`.
   * @returns the stored message, or `undefined` when the client refused it (a blank text: the
   *   client has shown the `blankMessage` notice; or a destroyed client)
   */
  send(input: SendInput): StoredMessage | undefined;
  /** Sends a text message (type 100); see {@link SendActions.send} for the result. */
  sendText(text: string, options?: SendOptions): StoredMessage | undefined;
  /**
   * Sends an uploaded file, or a picked file (a Blob: uploaded by the client and kept for a
   * reload until sent), as an image, file or video message; see {@link SendActions.send}.
   */
  sendFile(file: UploadedFile | Blob, kind: 'image' | 'file' | 'video', options?: SendOptions & { name?: string }): StoredMessage | undefined;
  /**
   * Resends a failed message with the same fp (a message that has not failed is left as it is).
   * @returns the message, or `undefined` when no message has this fp
   */
  retry(fp: string): StoredMessage | undefined;
}

/** Runs a client call; a refusal (`ImError`) gives undefined, anything else is rethrown. */
function refusable<T>(run: () => T): T | undefined {
  try {
    return run();
  } catch (error) {
    if (error instanceof ImError) return undefined;
    throw error;
  }
}

/**
 * Functions to send messages and retry failed ones. The per-message state lives on the message
 * (`sendState`: `pending`, `sent`, `failed`; `failReason`): read it with {@link useSendState} or
 * {@link useMessage}.
 *
 * ```tsx
 * const { sendText, retry } = useSend();
 * <button onClick={() => sendText(draft)}>Send</button>
 * ```
 * @throws TypeError from the returned functions for input of the wrong type
 */
export function useSend(): SendActions {
  const client = useImClient();
  return useMemo<SendActions>(
    () => ({
      send: (input) => refusable(() => client.send(input)),
      sendText: (text, options) => refusable(() => client.sendText(text, options)),
      sendFile: (file, kind, options) => refusable(() => client.sendFile(file, kind, options)),
      retry: (fp) => refusable(() => client.retry(fp)),
    }),
    [client],
  );
}

/** What {@link useSendState} returns. */
export interface SendStatus {
  /** `pending`, `sent` or `failed`; `undefined` for a received message or an unknown fp. */
  readonly state: SendState | undefined;
  /** Why it failed (a refusal reason such as `too-frequent`, or `network`), when failed. */
  readonly reason: string | undefined;
}

/**
 * The sending state of one outgoing message; re-renders only when that message changes.
 * @param fp - the message's fingerprint
 */
export function useSendState(fp: string): SendStatus {
  const message = useMessage(fp);
  const state = message?.sendState;
  const reason = message?.failReason;
  return useMemo(() => ({ state, reason }), [state, reason]);
}
