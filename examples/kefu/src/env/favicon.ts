/**
 * The page icon (spec §2): the merchant's `kefuAvatar2`, or the built-in default image.
 * @module
 */

import { usableImageUrl } from '../chat/message-body.js';

/** The built-in default icon (served from `public/`). */
export const DEFAULT_FAVICON = '/favicon.svg';

/**
 * The icon address for a merchant: its `kefuAvatar2` when that is an `http(s)` URL, a path on
 * this site or a base64 image `data:` URL, else the default.
 * @param merchant - the merchant info (or null)
 */
export function faviconFor(merchant: Record<string, unknown> | null | undefined): string {
  const avatar = merchant?.['kefuAvatar2'];
  if (typeof avatar !== 'string' || avatar.trim() === '') return DEFAULT_FAVICON;
  return usableImageUrl(avatar.trim()) ?? DEFAULT_FAVICON;
}

/**
 * Sets the document's icon link (creating it when missing).
 * @param doc - the document
 * @param href - the icon address
 */
export function setFavicon(doc: Document, href: string): void {
  let link = doc.querySelector<HTMLLinkElement>('link[rel~="icon"]');
  if (!link) {
    link = doc.createElement('link');
    link.rel = 'icon';
    doc.head.appendChild(link);
  }
  if (link.getAttribute('href') === href) return;
  link.removeAttribute('type');
  link.href = href;
}
