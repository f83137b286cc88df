/**
 * The emoji picker (spec §3): a grid of the 99 faces, loaded when first opened.
 * @module
 */
import { EMOJI_NAMES, emojiToken } from '@kefu-im/sdk/format';
import { useEffect, useRef, useState, type KeyboardEvent, type ReactElement } from 'react';
import { emojiName } from '../env/app-texts.js';
import { EmojiFace } from './emoji.js';

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
  /** The interface language (the faces' spoken names). */
  language: string;
}

/**
 * The picker: a grid of the 99 faces, each named in the interface language (Chinese names for zh
 * and zh-Hant, English for the others). Arrow keys, Home and End move between faces; Enter or
 * Space picks one; Escape closes. Focus starts on the first face.
 */
export default function EmojiPicker({ label, onPick, onClose, language }: EmojiPickerProps): ReactElement {
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
      // the composer's own Escape (which keeps the focus where it is) does not run as well
      event.stopPropagation();
      onClose();
    }
  };
  return (
    <div className="emoji-picker" role="group" aria-label={label} onKeyDown={onKeyDown}>
      {EMOJI_NAMES.map((name, i) => {
        const spoken = emojiName(language, i, name);
        return (
          <button
            key={name}
            ref={(el) => {
              buttons.current[i] = el;
            }}
            type="button"
            className="emoji-cell"
            tabIndex={i === active ? 0 : -1}
            aria-label={spoken}
            title={spoken}
            onFocus={() => setActive(i)}
            onClick={() => onPick(emojiToken(name))}
          >
            <EmojiFace index={i} name={spoken} decorative />
          </button>
        );
      })}
    </div>
  );
}
