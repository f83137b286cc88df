/**
 * Telling the server the visitor's new interface language, so that its own texts follow it (the
 * robot's answers, the queue and busy texts, the suggested questions sent again): the connect
 * data of the next connect, and now, on an open socket, a type-106 frame (docs/protocol.md).
 * Only a visitor's client tells it (an agent's texts are the app's own).
 * @module
 */
import type { ImClient } from '@kefu-im/sdk';

/** The frame type of a visitor's change of language (docs/protocol.md §6). */
export const LANGUAGE_FRAME_TYPE = 106;

/**
 * Tells the server a visitor client's language, when it changed.
 * @param client - the conversation's client (prepared: its connect data names the visitor)
 * @param language - the language the client now speaks
 * @returns whether a frame went out now (false: not a visitor's client, no change, or not connected)
 */
export function tellServerLanguage(client: Pick<ImClient, 'getConnectData' | 'setConnectData' | 'send' | 'connectionState'>, language: string): boolean {
  const data = client.getConnectData();
  if (data['role'] !== 'visitor' || data['language'] === language) return false;
  client.setConnectData({ ...data, language });
  if (client.connectionState !== 'open') return false;
  return client.send({ type: LANGUAGE_FRAME_TYPE, dataContent: JSON.stringify({ language }) }).sendState === 'sent';
}
