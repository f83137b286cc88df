/**
 * The 404 and 401 pages, and the page of a broken entry link.
 * @module
 */
import type { ReactElement } from 'react';
import { Link } from 'wouter';
import { useAppTexts } from '../runtime/context.js';
import { appText } from '../env/app-texts.js';

/** Props of {@link StatusPage}. */
export interface StatusPageProps {
  /** 404 (not found), 401 (unauthorised), a broken link or a switched-off platform. */
  code: '404' | '401' | 'link' | 'platform';
}

/** A full-page status message with a way back. */
export function StatusPage({ code }: StatusPageProps): ReactElement {
  const { t, language } = useAppTexts();
  const text = code === '404' ? t('notFound') : code === '401' ? t('unauthorised') : code === 'platform' ? appText(language, 'platformDisabled') : t('linkBroken');
  return (
    <main className="status-page">
      <h1>{code === 'link' || code === 'platform' ? '!' : code}</h1>
      <p>{text}</p>
      {code !== '401' && code !== 'platform' && (
        <Link href="/" className="btn btn-primary">
          {t('backHome')}
        </Link>
      )}
    </main>
  );
}
