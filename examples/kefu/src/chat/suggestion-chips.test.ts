import { describe, expect, it } from 'vitest';
import { hasMoreToTheRight } from './suggestion-chips.js';

describe('suggestion chips show that they scroll', () => {
  it('has more to the right until the end is reached', () => {
    expect(hasMoreToTheRight({ scrollLeft: 0, clientWidth: 300, scrollWidth: 900 })).toBe(true);
    expect(hasMoreToTheRight({ scrollLeft: 599, clientWidth: 300, scrollWidth: 900 })).toBe(false);
    expect(hasMoreToTheRight({ scrollLeft: 0, clientWidth: 300, scrollWidth: 300 })).toBe(false);
  });
});
