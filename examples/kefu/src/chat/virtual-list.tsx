/**
 * A small windowing list for long chat histories: only the rows in and near the viewport are in
 * the DOM (10 000 messages stay smooth), row heights are measured as they render, and the view
 * keeps still when older rows are added above it or rows above change height (the anchor is the
 * first row that starts in the view, so a change of the row cut by the top stays above the reader).
 * @module
 */
import {
  forwardRef,
  memo,
  startTransition,
  useCallback,
  useEffect,
  useImperativeHandle,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
  type Ref,
} from 'react';
import { distanceFromBottom } from '@kefu-im/sdk/embed';
import { anchorAt, anchoredScrollTop, layoutRows, visibleWindow, type ScrollAnchor } from './window-math.js';

/** What a parent can do with the list. */
export interface VirtualListHandle {
  /** Brings the row with this key into view; false when no row has it. */
  scrollToKey(key: string): boolean;
  /** The scroll container. */
  element(): HTMLDivElement | null;
}

/** Props of {@link VirtualList}. */
export interface VirtualListProps<T> {
  /** The rows, in display order. */
  items: readonly T[];
  /** A stable key per row. */
  itemKey: (item: T) => string;
  /** Renders one row. */
  renderItem: (item: T) => ReactNode;
  /** Accessible name of the list. */
  label: string;
  /** Height assumed for a row not measured yet, px (default 72). */
  estimateHeight?: number;
  /** Extra px rendered above and below the viewport (default 600), from the second render on. */
  overscan?: number;
  /** Called when the view comes within `nearTopPx` of the top (load older rows). */
  onNearTop?: () => void;
  /** Distance from the top that counts as near, px (default 300). */
  nearTopPx?: number;
  /** Called after every scroll with the distance from the bottom. */
  onScrolled?: (distance: number) => void;
  /** Extra class of the scroll container. */
  className?: string;
}

const NO_ITEMS: readonly string[] = [];

/** Props of {@link Row}. */
interface RowProps {
  item: unknown;
  rowKey: string;
  render: (item: never) => ReactNode;
}

/**
 * One rendered row. Memoised: the list re-renders itself after each measurement and each scroll,
 * and a row whose item and renderer did not change is not rendered again.
 */
const Row = memo(function Row({ item, rowKey, render }: RowProps): ReactNode {
  return (
    <div data-key={rowKey} className="vrow">
      {(render as (item: unknown) => ReactNode)(item)}
    </div>
  );
});

/** The viewport assumed before the list is mounted, px: the window's height (600 without a window). */
function initialViewport(): number {
  const height = typeof window === 'undefined' ? 0 : window.innerHeight;
  return height > 0 ? height : 600;
}

function VirtualListInner<T>(props: VirtualListProps<T>, ref: Ref<VirtualListHandle>): ReactNode {
  const { items, itemKey, renderItem, label, estimateHeight = 72, overscan = 600, onNearTop, nearTopPx = 300, onScrolled, className } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const inner = useRef<HTMLDivElement>(null);
  const space = useRef<HTMLDivElement>(null);
  const heights = useRef(new Map<string, number>());
  const [version, setVersion] = useState(0);
  // The viewport's top as last set or seen; null until the list positioned itself (it starts at the
  // bottom, so the first render already holds the newest rows).
  const [scrollTop, setScrollTop] = useState<number | null>(null);
  // The viewport's height as measured; until the list positioned itself, the window's (which the
  // list never exceeds), so that every render until then has the first render's rows.
  const [firstViewport] = useState(initialViewport);
  const [viewport, setViewport] = useState(firstViewport);
  const anchor = useRef<ScrollAnchor | null>(null);
  const stuck = useRef(true);
  // The scroll position as last seen (a scroll event, or a position the list set) and the rows it
  // was seen with: a different position at a render is a scroll whose event has not come yet.
  const seen = useRef<{ top: number; keys: readonly string[]; offsets: Float64Array } | null>(null);
  /** Takes the anchor at the current position with these rows, and notes the position as seen. */
  const takeAnchor = useCallback((el: HTMLElement, rowKeys: readonly string[], offsets: Float64Array): void => {
    anchor.current = anchorAt(rowKeys, offsets, el.scrollTop, el.clientHeight);
    seen.current = { top: el.scrollTop, keys: rowKeys, offsets };
  }, []);

  const keys = useMemo(() => (items.length === 0 ? NO_ITEMS : items.map(itemKey)), [items, itemKey]);
  // `version` changes when a measured height changed: recompute the offsets.
  const layout = useMemo(() => layoutRows(keys, (k) => heights.current.get(k), estimateHeight), [keys, estimateHeight, version]);
  const total = layout.offsets[layout.offsets.length - 1] ?? 0;
  // The first render holds the rows of the window's height only (by their estimated heights): its
  // commit lays out the whole chat, a phone's longest task of a first visit (bench/README.md,
  // eleventh pass). The overscan above follows in the transition that positions the list.
  const win =
    scrollTop === null
      ? visibleWindow(layout.offsets, Math.max(0, total - firstViewport), firstViewport, 0)
      : visibleWindow(layout.offsets, scrollTop, viewport, overscan);
  const latest = useRef({ keys, layout });
  latest.current = { keys, layout };

  const measure = useCallback((): boolean => {
    const box = inner.current;
    if (!box) return false;
    let changed = false;
    for (const child of Array.from(box.children)) {
      const key = (child as HTMLElement).dataset['key'];
      if (key === undefined) continue;
      const h = child.getBoundingClientRect().height;
      if (heights.current.get(key) !== h) {
        heights.current.set(key, h);
        changed = true;
      }
    }
    return changed;
  }, []);

  // Measure the rendered rows before paint; keep the anchor (or the bottom) in place.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (scrollTop === null) {
      // The first rows (the newest, see `win`): measured, laid out and scrolled to the bottom here,
      // on the DOM, before the first paint; React's state follows in a transition, after the paint.
      // A synchronous re-render here would render the list again and run every pending effect of
      // the page in the same task (on a slow phone, the page's longest task).
      if (!el || !space.current || !inner.current || keys.length === 0) return;
      measure();
      const next = layoutRows(keys, (k) => heights.current.get(k), estimateHeight);
      space.current.style.height = `${next.offsets[next.offsets.length - 1] ?? 0}px`;
      inner.current.style.transform = `translateY(${next.offsets[win.start] ?? 0}px)`;
      el.scrollTop = el.scrollHeight;
      latest.current = { keys, layout: next };
      takeAnchor(el, keys, next.offsets);
      const top = el.scrollTop;
      startTransition(() => {
        setVersion((v) => v + 1);
        setScrollTop(top);
      });
      return;
    }
    if (measure()) {
      setVersion((v) => v + 1);
      return;
    }
    if (!el) return;
    // The reader scrolled and this render came before the event: their position decides, not the
    // one before (which would pull them back to the bottom or to the old anchor).
    const before = seen.current;
    if (before && Math.abs(el.scrollTop - before.top) >= 1) {
      anchor.current = anchorAt(before.keys, before.offsets, el.scrollTop, el.clientHeight);
      stuck.current = distanceFromBottom(el) <= 2;
    }
    if (stuck.current) {
      el.scrollTop = el.scrollHeight;
    } else {
      const target = anchoredScrollTop(layout, anchor.current);
      if (target !== null && Math.abs(target - el.scrollTop) >= 1) el.scrollTop = target;
    }
    takeAnchor(el, keys, layout.offsets);
    // Render the window of the position just set before the browser paints (not again when the
    // window already is that position's).
    if (el.scrollTop !== scrollTop) setScrollTop(el.scrollTop);
  });

  // Later size changes of rendered rows (images loading) and of the viewport.
  useEffect(() => {
    const el = scroller.current;
    const box = inner.current;
    if (!el || !box || typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(() => {
      setViewport(el.clientHeight);
      if (measure()) setVersion((v) => v + 1);
    });
    observer.observe(el);
    observer.observe(box);
    setViewport(el.clientHeight);
    return () => observer.disconnect();
  }, [measure]);

  const onScroll = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    setScrollTop(el.scrollTop);
    const { keys: k, layout: l } = latest.current;
    takeAnchor(el, k, l.offsets);
    const distance = distanceFromBottom(el);
    stuck.current = distance <= 2;
    if (el.scrollTop < nearTopPx) onNearTop?.();
    onScrolled?.(distance);
  }, [nearTopPx, onNearTop, onScrolled, takeAnchor]);

  useImperativeHandle(
    ref,
    () => ({
      scrollToKey: (key) => {
        const el = scroller.current;
        const i = latest.current.layout.indexByKey.get(key);
        if (!el || i === undefined) return false;
        stuck.current = false;
        el.scrollTop = Math.max(0, (latest.current.layout.offsets[i] ?? 0) - el.clientHeight / 3);
        // The new position is the anchor: otherwise the next render restores the old one.
        takeAnchor(el, latest.current.keys, latest.current.layout.offsets);
        setScrollTop(el.scrollTop);
        return true;
      },
      element: () => scroller.current,
    }),
    [takeAnchor],
  );

  const top = layout.offsets[win.start] ?? 0;
  const rows: ReactNode[] = [];
  for (let i = win.start; i < win.end; i++) {
    const item = items[i];
    const key = keys[i];
    if (item === undefined || key === undefined) continue;
    rows.push(<Row key={key} rowKey={key} item={item} render={renderItem as (item: never) => ReactNode} />);
  }
  return (
    <div ref={scroller} className={className ? `vlist ${className}` : 'vlist'} role="log" aria-label={label} tabIndex={0} onScroll={onScroll}>
      <div ref={space} className="vlist-space" style={{ height: total }}>
        <div ref={inner} className="vlist-rows" style={{ transform: `translateY(${top}px)` }}>
          {rows}
        </div>
      </div>
    </div>
  );
}

/**
 * The windowing list. Rows are rendered in a translated block inside a spacer as tall as all rows
 * together; row heights are measured before paint and on resize.
 */
export const VirtualList = forwardRef(VirtualListInner) as <T>(props: VirtualListProps<T> & { ref?: Ref<VirtualListHandle> }) => ReactNode;
