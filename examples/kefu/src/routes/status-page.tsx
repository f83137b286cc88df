/**
 * The 404 and 401 pages, and the page of a broken entry link.
 * @module
 */
import type { ReactElement } from 'react';
import { Link } from 'wouter';
import { useAppTexts } from '../runtime/context.js';

/** Props of {@link StatusPage}. */
export interface StatusPageProps {
  /** 404 (not found), 401 (unauthorised) or a broken link. */
  code: '404' | '401' | 'link';
}

/** A full-page status message with a way back. */
export function StatusPage({ code }: StatusPageProps): ReactElement {
  const { t } = useAppTexts();
  const text = code === '404' ? t('notFound') : code === '401' ? t('unauthorised') : t('linkBroken');
  return (
    <main className="status-page">
      <h1>{code === 'link' ? '!' : code}</h1>
      <p>{text}</p>
      {code !== '401' && (
        <Link href="/" className="btn btn-primary">
          {t('backHome')}
        </Link>
      )}
    </main>
  );
}
