// @vitest-environment happy-dom
import { act, cleanup, render } from '@testing-library/react';
import { useLayoutEffect } from 'react';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { VirtualList } from './virtual-list.js';

const ROW = 50;
const VIEW = 600;

/** Rows whose height is not {@link ROW}, by key (a row that changed, e.g. through a language switch). */
const rowHeights = new Map<string, number>();

/** Gives the DOM the sizes a browser would: rows 50 px, a 600 px viewport, content as tall as the spacer. */
function stubLayout(): () => void {
  const proto = HTMLElement.prototype;
  const saved = {
    rect: Object.getOwnPropertyDescriptor(Element.prototype, 'getBoundingClientRect'),
    client: Object.getOwnPropertyDescriptor(proto, 'clientHeight'),
    scroll: Object.getOwnPropertyDescriptor(proto, 'scrollHeight'),
  };
  Object.defineProperty(Element.prototype, 'getBoundingClientRect', {
    configurable: true,
    value(this: Element) {
      const h = this.classList.contains('vrow') ? (rowHeights.get((this as HTMLElement).dataset['key'] ?? '') ?? ROW) : 0;
      return { x: 0, y: 0, top: 0, left: 0, right: 0, bottom: h, width: 300, height: h, toJSON: () => ({}) };
    },
  });
  Object.defineProperty(proto, 'clientHeight', { configurable: true, get: () => VIEW });
  Object.defineProperty(proto, 'scrollHeight', {
    configurable: true,
    get(this: HTMLElement) {
      const space = this.querySelector<HTMLElement>(':scope > .vlist-space');
      return space ? parseFloat(space.style.height) || 0 : 0;
    },
  });
  return () => {
    if (saved.rect) Object.defineProperty(Element.prototype, 'getBoundingClientRect', saved.rect);
    if (saved.client) Object.defineProperty(proto, 'clientHeight', saved.client);
    else Reflect.deleteProperty(proto, 'clientHeight');
    if (saved.scroll) Object.defineProperty(proto, 'scrollHeight', saved.scroll);
    else Reflect.deleteProperty(proto, 'scrollHeight');
  };
}

interface Item {
  id: string;
}
const items = (n: number, prefix = 'm'): Item[] => Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}` }));
const key = (item: Item): string => item.id;
const show = (item: Item): string => item.id;

let restore: () => void = () => undefined;
beforeEach(() => {
  restore = stubLayout();
});
afterEach(() => {
  cleanup();
  restore();
  rowHeights.clear();
});

describe('issue 5: "a history of 10 000 messages stays smooth"', () => {
  it('keeps a few dozen of 10 000 rows in the DOM, starting at the bottom', () => {
    const { container } = render(<VirtualList items={items(10_000)} itemKey={key} renderItem={show} label="messages" estimateHeight={ROW} />);
    const rows = container.querySelectorAll('.vrow');
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(60);
    expect(rows[rows.length - 1]?.textContent).toBe('m9999');
    expect(container.querySelector<HTMLElement>('.vlist-space')?.style.height).toBe(`${10_000 * ROW}px`);
  });
});

describe('issue 5: "older messages load on scroll up without the view jumping"', () => {
  it('keeps the row at the top of the view in place when older rows are added above', () => {
    const list = items(1_000);
    const { container, rerender } = render(<VirtualList items={list} itemKey={key} renderItem={show} label="messages" estimateHeight={ROW} />);
    const el = container.querySelector<HTMLElement>('.vlist');
    if (!el) throw new Error('no list');
    act(() => {
      el.scrollTop = 500 * ROW + 20;
      el.dispatchEvent(new Event('scroll'));
    });
    rerender(<VirtualList items={[...items(100, 'old'), ...list]} itemKey={key} renderItem={show} label="messages" estimateHeight={ROW} />);
    expect(el.scrollTop).toBe(600 * ROW + 20);
    expect(container.querySelector('.vrow')?.textContent).not.toMatch(/^old/);
  });

  it('keeps the first row that starts in the view still when rows above it, and the row cut by the top, grow (issue 23)', () => {
    const list = items(100);
    const { container, rerender } = render(<VirtualList items={list} itemKey={key} renderItem={show} label="messages" estimateHeight={ROW} />);
    const el = container.querySelector<HTMLElement>('.vlist');
    if (!el) throw new Error('no list');
    act(() => {
      el.scrollTop = 50 * ROW + 20; // m50 is cut by the top; the reader reads from m51, 30 px down
      el.dispatchEvent(new Event('scroll'));
    });
    // the texts of the rendered rows change (another language): m45 to m50 grow by 3 px each
    for (let i = 45; i <= 50; i++) rowHeights.set(`m${i}`, ROW + 3);
    rerender(<VirtualList items={list} itemKey={key} renderItem={(item: Item) => `${item.id} (en)`} label="messages" estimateHeight={ROW} />);
    const readerTop = 51 * ROW + 6 * 3;
    expect(readerTop - el.scrollTop).toBe(30);
  });

  it('leaves a reader who scrolled up where they are when the list renders before the scroll event comes (issue 23)', () => {
    const list = items(100);
    const { container, rerender } = render(<VirtualList items={list} itemKey={key} renderItem={show} label="messages" estimateHeight={ROW} />);
    const el = container.querySelector<HTMLElement>('.vlist');
    if (!el) throw new Error('no list');
    expect(el.scrollTop).toBeGreaterThanOrEqual(100 * ROW - VIEW); // at the bottom: the list follows new rows
    // the reader scrolls up; a browser dispatches the scroll event at its next frame, and a row's
    // update renders the list before that
    el.scrollTop = 60 * ROW;
    rerender(<VirtualList items={[...list, { id: 'new' }]} itemKey={key} renderItem={show} label="messages" estimateHeight={ROW} />);
    expect(el.scrollTop).toBe(60 * ROW);
    act(() => void el.dispatchEvent(new Event('scroll')));
    rerender(<VirtualList items={[...list, { id: 'new' }, { id: 'newer' }]} itemKey={key} renderItem={show} label="messages" estimateHeight={ROW} />);
    expect(el.scrollTop).toBe(60 * ROW);
  });

  it('asks for older rows near the top', () => {
    let asked = 0;
    const { container } = render(<VirtualList items={items(100)} itemKey={key} renderItem={show} label="messages" estimateHeight={ROW} onNearTop={() => (asked += 1)} />);
    const el = container.querySelector<HTMLElement>('.vlist');
    if (!el) throw new Error('no list');
    act(() => {
      el.scrollTop = 100;
      el.dispatchEvent(new Event('scroll'));
    });
    expect(asked).toBe(1);
  });
});

describe('issue 24: the first commit of a long list is cheap (no re-render of rows per measurement)', () => {
  it('renders each row once on mount, starting at the bottom, though heights differ from the estimate', () => {
    const renders = new Map<string, number>();
    const counted = (item: Item): string => {
      renders.set(item.id, (renders.get(item.id) ?? 0) + 1);
      return item.id;
    };
    // the estimate (72) is not the rows' height (50): the list measures and re-lays out before paint
    const { container } = render(<VirtualList items={items(10_000)} itemKey={key} renderItem={counted} label="messages" />);
    const el = container.querySelector<HTMLElement>('.vlist');
    if (!el) throw new Error('no list');
    // no row of the top was ever rendered: the first render was already the bottom's window
    expect(renders.has('m0')).toBe(false);
    expect(renders.get('m9999')).toBe(1);
    expect([...renders.entries()].filter(([, n]) => n !== 1)).toEqual([]);
    expect(el.scrollTop).toBeGreaterThanOrEqual(el.scrollHeight - VIEW); // at the bottom (happy-dom does not clamp)
    expect(container.querySelectorAll('.vrow')[container.querySelectorAll('.vrow').length - 1]?.textContent).toBe('m9999');
  });

  it("commits the window's height of rows first, by their estimate, then the overscan above them", () => {
    // a browser's scrollTop: at most the content's height less the viewport's
    const scrollTop = Object.getOwnPropertyDescriptor(Element.prototype, 'scrollTop');
    if (!scrollTop?.get || !scrollTop.set) throw new Error('no scrollTop accessor');
    const { get, set } = scrollTop;
    Object.defineProperty(Element.prototype, 'scrollTop', {
      configurable: true,
      get,
      set(this: HTMLElement, top: number) {
        set.call(this, Math.min(top, Math.max(0, this.scrollHeight - this.clientHeight)));
      },
    });
    onTestFinished(() => void Object.defineProperty(Element.prototype, 'scrollTop', scrollTop));
    const committed: string[][] = [];
    /** Beside the list, after it: its layout effect sees the first commit's rows. */
    function Rows(): null {
      useLayoutEffect(() => void committed.push([...document.querySelectorAll('.vrow')].map((row) => row.textContent ?? '')));
      return null;
    }
    const { container } = render(
      <>
        <VirtualList items={items(10_000)} itemKey={key} renderItem={show} label="messages" estimateHeight={ROW} />
        <Rows />
      </>,
    );
    const first = committed[0] ?? [];
    // the rows that fill the window (the list is never taller), not the 600 px of overscan above them
    expect(first.length).toBeGreaterThanOrEqual(Math.ceil(window.innerHeight / ROW));
    expect(first.length).toBeLessThanOrEqual(Math.ceil(window.innerHeight / ROW) + 1);
    expect(first[first.length - 1]).toBe('m9999');
    // then the list positioned itself at the bottom: the viewport (600 px) and the overscan above it
    expect(container.querySelector<HTMLElement>('.vlist')?.scrollTop).toBe(10_000 * ROW - VIEW);
    const now = [...container.querySelectorAll('.vrow')].map((row) => row.textContent);
    expect(now.length).toBeGreaterThanOrEqual((VIEW + 600) / ROW);
    expect(now.slice(-first.length)).toEqual(first);
  });
});
