import { describe, expect, it } from 'vitest';
import { anchorAt, anchoredScrollTop, layoutRows, rowAt, visibleWindow } from './window-math.js';

const keys = (n: number, prefix = 'm'): string[] => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe('issue 5: "a history of 10 000 messages stays smooth": only the rows near the view are rendered', () => {
  it('renders a few dozen rows of 10 000', () => {
    const layout = layoutRows(keys(10_000), () => undefined, 80);
    expect(layout.offsets[10_000]).toBe(800_000);
    const win = visibleWindow(layout.offsets, 400_000, 800, 600);
    expect(win.start).toBe(Math.floor((400_000 - 600) / 80));
    expect(win.end - win.start).toBeLessThan(40);
  });

  it('finds the row at a position by binary search, clamped to the rows', () => {
    const layout = layoutRows(['a', 'b', 'c'], (k) => ({ a: 10, b: 20, c: 30 })[k], 50);
    expect(Array.from(layout.offsets)).toEqual([0, 10, 30, 60]);
    expect(rowAt(layout.offsets, 0)).toBe(0);
    expect(rowAt(layout.offsets, 29.9)).toBe(1);
    expect(rowAt(layout.offsets, 30)).toBe(2);
    expect(rowAt(layout.offsets, 1e9)).toBe(2);
    expect(rowAt(layout.offsets, -5)).toBe(0);
    expect(visibleWindow(new Float64Array([0]), 0, 100, 0)).toEqual({ start: 0, end: 0 });
  });
});

describe('issue 5: "older messages load on scroll up without the view jumping"', () => {
  it('keeps the anchor row where it was after older rows are added above it', () => {
    const before = layoutRows(keys(50), () => 100, 100);
    const anchor = anchorAt(keys(50), before.offsets, 1_234);
    expect(anchor).toEqual({ key: 'm12', delta: 34 });
    const older = [...keys(20, 'old'), ...keys(50)];
    const after = layoutRows(older, (k) => (k.startsWith('old') ? 60 : 100), 100);
    expect(anchoredScrollTop(after, anchor)).toBe(20 * 60 + 1_234);
  });

  it('with the viewport: anchors the first row that starts in the view, not the row cut by its top (issue 23)', () => {
    const layout = layoutRows(keys(50), () => 100, 100);
    const all = keys(50);
    expect(anchorAt(all, layout.offsets, 1_234, 600)).toEqual({ key: 'm13', delta: -66 });
    // a row starting at the view's top (within the slack) is itself the anchor
    expect(anchorAt(all, layout.offsets, 1_200.4, 600)?.key).toBe('m12');
    // one row taller than the view fills it: it stays the anchor
    const tall = layoutRows(all, (k) => (k === 'm12' ? 2_000 : 100), 100);
    expect(anchorAt(all, tall.offsets, 1_500, 600)).toEqual({ key: 'm12', delta: 300 });
    // the last row cut by the top has no next row
    expect(anchorAt(all, layout.offsets, 4_950, 600)?.key).toBe('m49');
    // the cut row grows (its text in another language): the anchored row, and the reader, stay
    const grown = layoutRows(all, (k) => (k === 'm12' ? 117.5 : 100), 100);
    const anchor = anchorAt(all, layout.offsets, 1_234, 600);
    expect((grown.offsets[13] ?? 0) - (anchoredScrollTop(grown, anchor) ?? 0)).toBe(66);
  });

  it('keeps the reader\'s row when the browser rounds the scroll position a fraction of a pixel above it', () => {
    // older rows were added: the list asks for the anchor's top, 2211.016; the browser stops at 2211
    const layout = layoutRows([...keys(20, 'old'), 'reader', ...keys(5)], () => undefined, 110.5508);
    const top = layout.offsets[20] ?? 0;
    const anchor = anchorAt([...layout.indexByKey.keys()], layout.offsets, Math.floor(top));
    expect(anchor?.key).toBe('reader');
    expect(anchor?.delta).toBeCloseTo(Math.floor(top) - top, 6);
    // the unmeasured row above then measures 52 px taller: the reader's row stays where it is
    const measured = layoutRows([...keys(20, 'old'), 'reader', ...keys(5)], (k) => (k === 'old19' ? 162.6 : undefined), 110.5508);
    expect((anchoredScrollTop(measured, anchor) ?? 0) - (measured.offsets[20] ?? 0)).toBeCloseTo(Math.floor(top) - top, 6);
  });

  it('follows a row above the view that changed height', () => {
    const layout = layoutRows(keys(10), (k) => (k === 'm0' ? 300 : 100), 100);
    expect(anchoredScrollTop(layout, { key: 'm5', delta: 10 })).toBe(300 + 4 * 100 + 10);
    expect(anchoredScrollTop(layout, { key: 'gone', delta: 0 })).toBeNull();
    expect(anchoredScrollTop(layout, null)).toBeNull();
  });
});
