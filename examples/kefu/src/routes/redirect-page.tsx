/**
 * `/redirect/{path}` (spec §2): goes to `/{path}` (which may contain slashes) with the same
 * query, replacing the history entry. Only paths of this site are reachable.
 * @module
 */
import { useEffect, type ReactElement } from 'react';
import { useLocation, useParams, useSearch } from 'wouter';
import { useAppTexts } from '../runtime/context.js';

/**
 * The in-site path a redirect goes to.
 * @param rest - what follows `/redirect/`
 * @param search - the query without `?`
 */
export function redirectTarget(rest: string | undefined, search: string): string {
  const path = `/${(rest ?? '').replace(/^[/\\]+/, '').replace(/\\/g, '/')}`;
  return search ? `${path}?${search}` : path;
}

/** The redirect page. */
export function RedirectPage(): ReactElement {
  const { t } = useAppTexts();
  const params = useParams<{ '*': string }>();
  const search = useSearch();
  const [, navigate] = useLocation();
  const target = redirectTarget(params['*'], search);
  useEffect(() => {
    navigate(target, { replace: true });
  }, [navigate, target]);
  return (
    <main className="status-page">
      <p>{t('routeRedirect')}</p>
    </main>
  );
}
