/**
 * The non-character key list of spec §9: keys that do not type a character.
 * @module
 */

/** Keys (`KeyboardEvent.key` values) that type no character (spec §9). */
export const NON_CHARACTER_KEYS: ReadonlySet<string> = new Set([
  'ArrowUp',
  'ArrowDown',
  'ArrowLeft',
  'ArrowRight',
  'Enter',
  'Escape',
  'Tab',
  'Shift',
  'Control',
  'Alt',
  'Meta',
  'CapsLock',
  'Home',
  'End',
  'PageUp',
  'PageDown',
  ...Array.from({ length: 12 }, (_, i) => `F${i + 1}`),
]);

/**
 * True when a key types a character (e.g. for "is the user typing"): not in
 * {@link NON_CHARACTER_KEYS} and not combined with Ctrl/Meta/Alt.
 * @param event - the key and modifier flags of a keyboard event
 */
export function isCharacterKey(event: { key: string; ctrlKey?: boolean; metaKey?: boolean; altKey?: boolean }): boolean {
  if (!event || typeof event.key !== 'string' || event.key === '' || event.key === 'Unidentified') return false;
  if (event.ctrlKey || event.metaKey || event.altKey) return false;
  return !NON_CHARACTER_KEYS.has(event.key);
}
