/**
 * The 404 and 401 pages, the page of a broken entry link, and the page of a view whose code could
 * not be fetched.
 * @module
 */
import type { ReactElement } from 'react';
import { Link } from 'wouter';
import { useAppTexts } from '../runtime/context.js';
import { appText } from '../env/app-texts.js';

/** Props of {@link StatusPage}. */
export interface StatusPageProps {
  /** 404 (not found), 401 (unauthorised), a broken link, a switched-off platform or a network failure. */
  code: '404' | '401' | 'link' | 'platform' | 'network';
}

/** A full-page status message with a way back. */
export function StatusPage({ code }: StatusPageProps): ReactElement {
  const { t, language } = useAppTexts();
  const text =
    code === '404' ? t('notFound') : code === '401' ? t('unauthorised') : code === 'platform' ? appText(language, 'platformDisabled') : code === 'network' ? t('networkError') : t('linkBroken');
  const numbered = code === '404' || code === '401';
  return (
    <main className="status-page">
      <h1>{numbered ? code : '!'}</h1>
      <p>{text}</p>
      {(code === '404' || code === 'link') && (
        <Link href="/" className="btn btn-primary">
          {t('backHome')}
        </Link>
      )}
    </main>
  );
}
