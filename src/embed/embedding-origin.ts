/**
 * The origin of the page that frames this one, for targeting outbound `postMessage` at it instead
 * of the wildcard `*` (SECURITY.md "Outbound postMessage").
 * @module
 */

/** The parts of `window` that {@link embeddingOrigin} reads. A real `Window` fits. */
export interface EmbeddingWindow {
  /** The parent window; the window itself when not framed. */
  readonly parent?: unknown;
  /** `location.ancestorOrigins` (Chromium, Safari): the origins of the framing pages, nearest first. */
  readonly location?: {
    /** The origins of the ancestors, nearest first. */
    readonly ancestorOrigins?: { readonly length: number; readonly [index: number]: string } | null;
  } | null;
  /** `document.referrer`: in a frame, the address of the page that loaded it (or its origin). */
  readonly document?: { readonly referrer?: string } | null;
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
