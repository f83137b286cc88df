import { describe, expect, it } from 'vitest';
import { insertAt } from './composer.js';

describe('spec §3: "Emoji text uses a face[name] token" inserted at the caret', () => {
  it('inserts at the caret, replacing a selection', () => {
    expect(insertAt('hello', 5, 5, 'face[微笑]')).toEqual({ text: 'helloface[微笑]', caret: 13 });
    expect(insertAt('hello', 1, 4, 'X')).toEqual({ text: 'hXo', caret: 2 });
  });

  it('clamps positions outside the text', () => {
    expect(insertAt('ab', -3, 99, 'X')).toEqual({ text: 'X', caret: 1 });
    expect(insertAt('ab', 9, 9, 'X')).toEqual({ text: 'abX', caret: 3 });
  });
});
