/**
 * The mobile-first layout rules of spec §9: the root font size (the `rem` unit) and the
 * hairline-border class.
 * @module
 */
import type { Disposer } from '../timers.js';

/** The layout constants of spec §9. */
export const LAYOUT_RULES = Object.freeze({
  /** The root font size is this fraction of the viewport width. */
  unitFraction: 1 / 10,
  /** Widths above this many px are scaled down (tablets, desktops). */
  capWidth: 710,
  /** The scale applied above the cap. */
  wideScale: 0.68,
  /** A scaled width never goes below this. */
  floorWidth: 375,
  /** The unit never exceeds this many px. */
  maxUnit: 49,
  /** Device pixel ratio from which the hairline-border class applies. */
  hairlineDpr: 2,
});

/** The class added to the root element when hairline (0.5 px) borders render. */
export const HAIRLINE_CLASS = 'hairlines';

/**
 * The root font size in px for a viewport width (spec §9): a tenth of the width; above 710 px the
 * width is scaled by 0.68 but kept at least 375; the unit is capped at 49 px.
 * @param viewportWidth - the layout viewport width in CSS px
 */
export function rootFontSize(viewportWidth: number): number {
  if (!Number.isFinite(viewportWidth) || viewportWidth <= 0) return LAYOUT_RULES.floorWidth * LAYOUT_RULES.unitFraction;
  let width = viewportWidth;
  if (width > LAYOUT_RULES.capWidth) width = Math.max(width * LAYOUT_RULES.wideScale, LAYOUT_RULES.floorWidth);
  return Math.min(width * LAYOUT_RULES.unitFraction, LAYOUT_RULES.maxUnit);
}

/**
 * Whether the hairline-border class applies (device pixel ratio 2 or higher).
 * @param devicePixelRatio - `window.devicePixelRatio`
 */
export function usesHairlines(devicePixelRatio: number): boolean {
  return devicePixelRatio >= LAYOUT_RULES.hairlineDpr;
}

/** The parts of the root element (`<html>`) that {@link applyLayout} writes. */
export interface LayoutRootElement {
  /** Inline style: `fontSize` is set. */
  readonly style: {
    /** The root font size, e.g. `37.5px`. */
    fontSize: string;
  };
  /** Classes: the hairline class is toggled. */
  readonly classList: {
    /** Like `DOMTokenList.toggle`. */
    toggle(token: string, force?: boolean): unknown;
  };
}

/** The parts of `window` that {@link applyLayout} reads. */
export interface LayoutWindow {
  /** The viewport width. */
  readonly innerWidth: number;
  /** The device pixel ratio. */
  readonly devicePixelRatio: number;
  /** The document whose root element gets the font size and class. */
  readonly document: {
    /** The root element (`<html>`). */
    readonly documentElement: LayoutRootElement;
  };
  /** Like `window.addEventListener`. */
  addEventListener(type: string, listener: () => void): void;
  /** Like `window.removeEventListener`. */
  removeEventListener(type: string, listener: () => void): void;
}

/**
 * Applies the root font size and the hairline class now and on every resize or orientation change.
 * @param win - the window
 * @returns a disposer that stops following resizes
 */
export function applyLayout(win: LayoutWindow): Disposer {
  const update = (): void => {
    const root = win.document.documentElement;
    root.style.fontSize = `${rootFontSize(win.innerWidth)}px`;
    root.classList.toggle(HAIRLINE_CLASS, usesHairlines(win.devicePixelRatio));
  };
  update();
  win.addEventListener('resize', update);
  win.addEventListener('orientationchange', update);
  return () => {
    win.removeEventListener('resize', update);
    win.removeEventListener('orientationchange', update);
  };
}
