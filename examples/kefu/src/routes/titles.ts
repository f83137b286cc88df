/**
 * Route titles (spec §2): the document title is set from the route's title before each
 * navigation, when the route has one. The Chinese labels are the SDK's texts, so they follow the
 * interface language.
 * @module
 */
import type { I18nKey } from '@kefu-im/sdk';
import type { AppTextKey } from '../env/app-texts.js';

/** A route's title: an SDK text key, an app text key, a literal, or none. */
export type RouteTitle = { key: I18nKey } | { app: AppTextKey } | { text: string } | null;

/**
 * The title of a path.
 * @param path - the location path
 */
export function routeTitle(path: string): RouteTitle {
  if (path === '/kefu' || path.startsWith('/kefu/')) return { key: 'routeConversation' };
  if (path === '/group' || path.startsWith('/group/')) return { key: 'routeGroup' };
  if (path.startsWith('/redirect/')) return { key: 'routeRedirect' };
  if (path === '/404') return { text: '404' };
  if (path === '/401') return { text: '401' };
  if (path === '/agent') return { app: 'deskLogin' }; // the desk says "Desk · <account>" once logged in
  return null;
}

/**
 * The title text of a path, or null when the route has none.
 * @param path - the location path
 * @param t - the current texts
 * @param app - the current app texts
 */
export function routeTitleText(path: string, t: (key: I18nKey) => string, app: (key: AppTextKey) => string): string | null {
  const title = routeTitle(path);
  if (!title) return null;
  if ('key' in title) return t(title.key);
  return 'app' in title ? app(title.app) : title.text;
}
