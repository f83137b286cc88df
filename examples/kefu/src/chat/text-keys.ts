/**
 * Server-made texts with a text key (docs/protocol.md "Text keys"): the robot's greeting carries
 * one, and the app shows its own text for the key in the interface language of the moment, so
 * that a visitor who changes language reads the greeting in the new one (and after a reload too).
 * Other messages show their `dataContent`.
 * @module
 */
import { MessageType, type ChatMessage } from '@kefu-im/sdk';
import { appText, type AppTextKey } from '../env/app-texts.js';

/** What the text of a message is read from (`textKey` is beside the spec's fields, unchecked). */
export type KeyedMessage = Pick<ChatMessage, 'type' | 'robot' | 'dataContent'> & { readonly textKey?: unknown };

/** The app text of each key the app knows. */
const KEYED_TEXTS: ReadonlyMap<string, AppTextKey> = new Map<string, AppTextKey>([
  ['greeting', 'robotGreeting'],
  ['greeting-no-questions', 'robotGreetingNoQuestions'],
]);

/**
 * The app's text for a keyed robot text in `language`, or undefined for any other message (an
 * unknown key, a message that is not the robot's).
 * @param message - the message
 * @param language - the interface language
 */
export function keyedText(message: KeyedMessage, language: string): string | undefined {
  const key = typeof message.textKey === 'string' ? KEYED_TEXTS.get(message.textKey) : undefined;
  if (key === undefined || message.type !== MessageType.RobotText || Number(message.robot) !== 1) return undefined;
  return appText(language, key);
}

/**
 * The text a message shows in `language`: its keyed text, else its `dataContent`.
 * @param message - the message
 * @param language - the interface language
 */
export function shownText(message: KeyedMessage, language: string): string {
  return keyedText(message, language) ?? message.dataContent ?? '';
}
