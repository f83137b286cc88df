/**
 * Emoji: one face image (25x25, spec §9). The picker of the 99 faces (spec §3) is
 * `emoji-picker.tsx`, loaded when first opened.
 * @module
 */
import { EMOJI_SIZE } from '@kefu-im/sdk/format';
import { memo, type ReactElement } from 'react';
import { LazyPart, retryingLazy } from '../ui/lazy-part.js';

/**
 * The drawings, loaded with the first face shown (a visitor may never see one): the 25x25 frame
 * is there at once, so a row does not change height when they arrive.
 */
const EmojiArt = retryingLazy(() => import('./emoji-art.js').then((art) => ({ default: ({ index }: { index: number }) => <>{art.emojiParts(index)}</> })));

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
      <LazyPart>
        <EmojiArt index={index} />
      </LazyPart>
    </svg>
  );
});
