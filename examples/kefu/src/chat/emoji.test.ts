import { EMOJI_NAMES } from '@kefu-im/sdk/format';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { emojiParts } from './emoji-art.js';
import { EmojiFace } from './emoji.js';

describe('spec §3, §9: "a fixed list of 99 Chinese emoji names; the index of a name selects the image", 25x25', () => {
  it('draws 99 different 25x25 images, each named for assistive technology', () => {
    const images = EMOJI_NAMES.map((name, index) => renderToStaticMarkup(createElement(EmojiFace, { index, name })));
    expect(images).toHaveLength(99);
    for (const [i, svg] of images.entries()) {
      expect(svg).toContain('width="25" height="25"');
      expect(svg).toContain(`aria-label="${EMOJI_NAMES[i]}"`);
    }
    // The drawings load lazily (emoji-art.tsx): each index has its own.
    const drawings = EMOJI_NAMES.map((_, index) => renderToStaticMarkup(createElement('svg', null, emojiParts(index))));
    expect(new Set(drawings).size).toBe(99);
  });
});
