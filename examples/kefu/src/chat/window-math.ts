/**
 * The arithmetic of the virtualised message list: row offsets from measured (or estimated)
 * heights, the window of rows to render for a scroll position, and the scroll position that keeps
 * an anchor row still when rows are added above it.
 * @module
 */

/** Row offsets: `offsets[i]` is the top of row `i`, `offsets[n]` the total height. */
export interface RowLayout {
  /** Tops of the rows plus the total height at the end (length n + 1). */
  readonly offsets: Float64Array;
  /** Row index by key. */
  readonly indexByKey: ReadonlyMap<string, number>;
}

/**
 * Lays out rows top to bottom.
 * @param keys - the row keys in display order
 * @param heightOf - a row's measured height, or undefined when not measured yet
 * @param estimate - the height assumed for rows not measured yet
 */
export function layoutRows(keys: readonly string[], heightOf: (key: string) => number | undefined, estimate: number): RowLayout {
  const n = keys.length;
  const offsets = new Float64Array(n + 1);
  const indexByKey = new Map<string, number>();
  let top = 0;
  for (let i = 0; i < n; i++) {
    const key = keys[i] ?? '';
    offsets[i] = top;
    indexByKey.set(key, i);
    const h = heightOf(key);
    top += h === undefined || !(h >= 0) ? estimate : h;
  }
  offsets[n] = top;
  return { offsets, indexByKey };
}

/**
 * The index of the row that contains `y` (the last row whose top is at or above `y`), clamped to
 * the rows that exist. Binary search: O(log n).
 * @param offsets - see {@link RowLayout.offsets}
 * @param y - a vertical position
 */
export function rowAt(offsets: Float64Array, y: number): number {
  const n = offsets.length - 1;
  if (n <= 0) return 0;
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((offsets[mid] ?? 0) <= y) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** A window of rows: render rows `start` to `end - 1`. */
export interface RowWindow {
  /** First row to render. */
  start: number;
  /** One past the last row to render. */
  end: number;
}

/**
 * The rows to render for a viewport, with `overscan` px of extra rows above and below.
 * @param offsets - see {@link RowLayout.offsets}
 * @param scrollTop - the viewport's top
 * @param viewport - the viewport's height
 * @param overscan - extra px rendered on each side
 */
export function visibleWindow(offsets: Float64Array, scrollTop: number, viewport: number, overscan: number): RowWindow {
  const n = offsets.length - 1;
  if (n <= 0) return { start: 0, end: 0 };
  const top = Math.max(0, scrollTop - overscan);
  const bottom = scrollTop + Math.max(viewport, 1) + overscan;
  const start = rowAt(offsets, top);
  let end = rowAt(offsets, bottom) + 1;
  if (end > n) end = n;
  return { start, end: Math.max(end, start + 1) };
}

/** An anchor: a row and how far the viewport's top is below that row's top. */
export interface ScrollAnchor {
  /** The row's key. */
  key: string;
  /** `scrollTop - top of the row`. */
  delta: number;
}

/**
 * How far below the viewport's top the anchor row is looked for, px. The browser rounds a
 * `scrollTop` it is given (to whole or half device pixels): asked for a row's top, it may stop a
 * fraction of a pixel above it, and the anchor taken there would be the row above, which may not
 * have been measured yet, so the row the reader looks at would move when it is measured.
 */
export const ANCHOR_SLACK_PX = 1;

/**
 * The anchor for a scroll position: the first row that starts in the view (the row the reader
 * reads from; within {@link ANCHOR_SLACK_PX}, `delta` is then zero or below). When the row at the
 * view's top is cut by it, the next row is the anchor if it starts in the view: a change of the
 * cut row (a text in another language, a late image) then happens above the reader instead of
 * pushing what they read down. Without `viewport`, or when no row starts in the view (one tall
 * row fills it), the row at the view's top is the anchor.
 * @param keys - the row keys
 * @param offsets - see {@link RowLayout.offsets}
 * @param scrollTop - the viewport's top
 * @param viewport - the viewport's height (0: anchor the row at the top)
 */
export function anchorAt(keys: readonly string[], offsets: Float64Array, scrollTop: number, viewport = 0): ScrollAnchor | null {
  if (keys.length === 0) return null;
  let i = rowAt(offsets, scrollTop + ANCHOR_SLACK_PX);
  const next = offsets[i + 1];
  if (viewport > 0 && i + 1 < keys.length && next !== undefined && (offsets[i] ?? 0) < scrollTop - ANCHOR_SLACK_PX && next < scrollTop + viewport) i += 1;
  const key = keys[i];
  return key === undefined ? null : { key, delta: scrollTop - (offsets[i] ?? 0) };
}

/**
 * Where to scroll so that the anchor row stays where it was (e.g. after older rows were added
 * above it, or rows above it changed height). Returns null when the anchor row is gone.
 * @param layout - the new layout
 * @param anchor - the anchor taken before the change
 */
export function anchoredScrollTop(layout: RowLayout, anchor: ScrollAnchor | null): number | null {
  if (!anchor) return null;
  const i = layout.indexByKey.get(anchor.key);
  if (i === undefined) return null;
  return Math.max(0, (layout.offsets[i] ?? 0) + anchor.delta);
}
