/**
 * The origin of the page that frames this one, for targeting outbound `postMessage` at it instead
 * of the wildcard `*` (SECURITY.md "Outbound postMessage").
 * @module
 */

/** A list of origins like `location.ancestorOrigins` (a `DOMStringList`). */
export interface OriginList {
  /** How many origins. */
  readonly length: number;
  /** The origin at `index`, nearest ancestor first. */
  readonly [index: number]: string;
}

/** The part of `location` that {@link embeddingOrigin} reads. */
export interface EmbeddingLocation {
  /** `location.ancestorOrigins` (Chromium, Safari): the origins of the framing pages, nearest first. */
  readonly ancestorOrigins?: OriginList | null;
}

/** The part of `document` that {@link embeddingOrigin} reads. */
export interface EmbeddingDocument {
  /** `document.referrer`: in a frame, the address of the page that loaded it (or its origin). */
  readonly referrer?: string;
}

/** The parts of `window` that {@link embeddingOrigin} reads. A real `Window` fits. */
export interface EmbeddingWindow {
  /** The parent window; the window itself when not framed. */
  readonly parent?: unknown;
  /** The page's location. */
  readonly location?: EmbeddingLocation | null;
  /** The page's document. */
  readonly document?: EmbeddingDocument | null;
}

function httpOrigin(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : null;
  } catch {
    return null;
  }
}

function isFramed(win: EmbeddingWindow): boolean {
  try {
    const parent = win.parent;
    return parent !== null && parent !== undefined && parent !== win;
  } catch {
    return false;
  }
}

/**
 * The origin (`https://shop.example`) of the page framing `win`, when it can be known: the nearest
 * of `location.ancestorOrigins`, else the origin of `document.referrer` (a frame's referrer is
 * the page that loaded it; a strict referrer policy still leaves its origin). `null` when `win`
 * is not framed, or the origin is unknown or not http(s) (a sandboxed or `file:` parent): callers
 * then decide whether a wildcard target is acceptable for what they send.
 * @param win - the window (`null`/`undefined` under SSR)
 * @returns the parent's origin, or `null`
 */
export function embeddingOrigin(win: EmbeddingWindow | null | undefined): string | null {
  if (!win || !isFramed(win)) return null;
  try {
    const ancestors = win.location?.ancestorOrigins;
    if (ancestors && ancestors.length > 0) return httpOrigin(ancestors[0]);
  } catch {
    // fall through to the referrer
  }
  try {
    return httpOrigin(win.document?.referrer);
  } catch {
    return null;
  }
}
