/**
 * Emoji: one face image (25x25, spec §9) and the picker of the 99 faces (spec §3).
 * @module
 */
import { EMOJI_NAMES, EMOJI_SIZE, emojiToken } from '@kefu-im/sdk';
import { memo, useEffect, useRef, useState, type KeyboardEvent, type ReactElement } from 'react';
import { emojiParts } from './emoji-art.js';

/** Props of {@link EmojiFace}. */
export interface EmojiFaceProps {
  /** Index in `EMOJI_NAMES`. */
  index: number;
  /** The emoji's name (its accessible name). */
  name: string;
  /** Hide it from assistive technology (when a labelled button wraps it). */
  decorative?: boolean;
}

/** One emoji image, 25x25. */
export const EmojiFace = memo(function EmojiFace({ index, name, decorative = false }: EmojiFaceProps): ReactElement {
  const a11y = decorative ? { 'aria-hidden': true } : { role: 'img', 'aria-label': name };
  return (
    <svg className="emoji" width={EMOJI_SIZE} height={EMOJI_SIZE} viewBox="0 0 24 24" focusable="false" {...a11y}>
      {emojiParts(index)}
    </svg>
  );
});

/** Columns of the picker grid (99 faces = 11 rows of 9). */
const COLUMNS = 9;

/** Props of {@link EmojiPicker}. */
export interface EmojiPickerProps {
  /** Accessible name of the picker. */
  label: string;
  /** Called with the `face[name]` token of the chosen face. */
  onPick: (token: string) => void;
  /** Called on Escape. */
  onClose: () => void;
}

/**
 * The picker: a grid of the 99 faces. Arrow keys, Home and End move between faces; Enter or
 * Space picks one; Escape closes. Focus starts on the first face.
 */
export function EmojiPicker({ label, onPick, onClose }: EmojiPickerProps): ReactElement {
  const [active, setActive] = useState(0);
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  useEffect(() => {
    buttons.current[0]?.focus();
  }, []);
  const move = (to: number): void => {
    const next = Math.max(0, Math.min(EMOJI_NAMES.length - 1, to));
    setActive(next);
    buttons.current[next]?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    const moves: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: COLUMNS, ArrowUp: -COLUMNS };
    const delta = moves[event.key];
    if (delta !== undefined) {
      event.preventDefault();
      move(active + delta);
    } else if (event.key === 'Home') {
      event.preventDefault();
      move(0);
    } else if (event.key === 'End') {
      event.preventDefault();
      move(EMOJI_NAMES.length - 1);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      onClose();
    }
  };
  return (
    <div className="emoji-picker" role="group" aria-label={label} onKeyDown={onKeyDown}>
      {EMOJI_NAMES.map((name, i) => (
        <button
          key={name}
          ref={(el) => {
            buttons.current[i] = el;
          }}
          type="button"
          className="emoji-cell"
          tabIndex={i === active ? 0 : -1}
          aria-label={name}
          title={name}
          onFocus={() => setActive(i)}
          onClick={() => onPick(emojiToken(name))}
        >
          <EmojiFace index={i} name={name} decorative />
        </button>
      ))}
    </div>
  );
}
