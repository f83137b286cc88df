/**
 * The visitor's tab asks for attention (live signals): while messages are unread (they arrived
 * while the tab was hidden; the SDK's `useUnread`), the title reads `(n) <title>` and the icon
 * carries a dot; both go back once the visitor has read them. One hook, used by the conversation
 * page; components never touch the title or the icon.
 * @module
 */
import { useUnread } from '@kefu-im/react';
import { useEffect } from 'react';
import { setFavicon } from '../env/favicon.js';

/** The colour of the unread dot. */
export const DOT_COLOUR = '#e5484d';

/** The icon size drawn, px (sharp at twice the 32 px a tab shows). */
const SIZE = 64;

/**
 * The title with the unread count in front: `(3) Title`, or the title alone for 0.
 * @param title - the page's own title
 * @param count - unread messages
 */
export function attentionTitle(title: string, count: number): string {
  return count > 0 ? `(${count > 99 ? '99+' : count}) ${title}` : title;
}

/** An icon of the dot alone (SVG), for when the page's icon cannot be drawn (a cross-origin image without CORS). */
export const DOT_ONLY_ICON = `data:image/svg+xml,${encodeURIComponent(
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${SIZE} ${SIZE}"><circle cx="44" cy="20" r="18" fill="${DOT_COLOUR}" stroke="#fff" stroke-width="4"/></svg>`,
)}`;

/**
 * Draws `href` with the unread dot in its top-right corner, as a PNG data URL.
 * @param doc - the document (its canvas)
 * @param href - the icon to draw on
 * @returns the dotted icon, or {@link DOT_ONLY_ICON} when the icon cannot be loaded or read back
 */
export function dottedIcon(doc: Document, href: string): Promise<string> {
  return new Promise((resolve) => {
    const canvas = doc.createElement('canvas');
    const context = typeof canvas.getContext === 'function' ? canvas.getContext('2d') : null;
    const Image = doc.defaultView?.Image;
    if (!context || !Image) return resolve(DOT_ONLY_ICON);
    canvas.width = SIZE;
    canvas.height = SIZE;
    const image = new Image();
    image.crossOrigin = 'anonymous';
    image.onerror = () => resolve(DOT_ONLY_ICON);
    image.onload = () => {
      try {
        context.drawImage(image, 0, 0, SIZE, SIZE);
        context.beginPath();
        context.arc(SIZE - 16, 16, 14, 0, Math.PI * 2);
        context.fillStyle = DOT_COLOUR;
        context.fill();
        context.lineWidth = 4;
        context.strokeStyle = '#fff';
        context.stroke();
        resolve(canvas.toDataURL('image/png'));
      } catch {
        resolve(DOT_ONLY_ICON); // a tainted canvas: the image came without CORS
      }
    };
    image.src = href;
  });
}

/**
 * Applies the unread count to the document: the title (kept from before the first count, restored
 * at 0 unless the page changed it meanwhile) and the icon (`icon`, dotted while `count > 0`).
 * @param doc - the document
 * @param icon - the page's icon
 * @param count - unread messages
 * @returns a disposer that cancels a dotted icon still being drawn
 */
export function applyAttention(doc: Document, icon: string, count: number): () => void {
  const held = titles.get(doc);
  const base = held && doc.title === held.shown ? held.base : doc.title;
  const shown = attentionTitle(base, count);
  doc.title = shown;
  if (count > 0) titles.set(doc, { base, shown });
  else titles.delete(doc);
  if (count === 0) {
    setFavicon(doc, icon);
    return () => undefined;
  }
  let live = true;
  void dottedIcon(doc, icon).then((dotted) => {
    if (live) setFavicon(doc, dotted);
  });
  return () => {
    live = false;
  };
}

/** Per document: the title before the count, and the title shown with it. */
const titles = new WeakMap<Document, { base: string; shown: string }>();

/**
 * Keeps the page's icon on `icon`, and shows the unread count in the title and a dot on the icon
 * while messages are unread (see {@link applyAttention}). Needs an `ImProvider` above.
 * @param icon - the page's icon (the merchant's, or the default)
 */
export function useAttention(icon: string): void {
  const count = useUnread();
  useEffect(() => applyAttention(document, icon, count), [icon, count]);
}
