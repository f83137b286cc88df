/**
 * The suggested questions of the session (type 201): chips above the composer while the robot
 * serves. Choosing one asks it; the robot's answer appears in the chat, marked as robot. When the
 * chips overflow, the row fades at its end and an arrow scrolls on, so it is plain that more follow.
 * @module
 */
import { useI18n, useSession } from '@kefu-im/react';
import { useCallback, useEffect, useRef, useState, type ReactElement } from 'react';
import { useChat } from './conversation.js';
import { appText } from '../env/app-texts.js';

/** Whether a horizontal scroller has more content to its right. */
export function hasMoreToTheRight(el: Pick<HTMLElement, 'scrollLeft' | 'clientWidth' | 'scrollWidth'>): boolean {
  return Math.abs(el.scrollLeft) + el.clientWidth < el.scrollWidth - 2;
}

/** The suggested questions (nothing when there are none or an agent serves). */
export function SuggestionChips(): ReactElement | null {
  const { t, language } = useI18n();
  const { ask } = useChat();
  const suggestions = useSession((s) => s.suggestions);
  const status = useSession((s) => s.status);
  const scroller = useRef<HTMLUListElement>(null);
  const [more, setMore] = useState(false);
  const measure = useCallback(() => {
    const el = scroller.current;
    setMore(el ? hasMoreToTheRight(el) : false);
  }, []);
  const shown = status === 'robot' && suggestions.length > 0;
  useEffect(() => {
    if (!shown) return undefined;
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, [shown, suggestions, measure]);
  if (!shown) return null;
  return (
    <nav className={more ? 'suggestions has-more' : 'suggestions'} aria-label={t('suggestedQuestions')}>
      <span className="suggestions-title">{t('suggestedQuestions')}</span>
      <ul ref={scroller} className="suggestions-scroll" onScroll={measure}>
        {suggestions.map((q) => (
          <li key={String(q.id)}>
            <button type="button" className="chip-btn" onClick={() => ask(q.id)}>
              {q.question}
            </button>
          </li>
        ))}
      </ul>
      {more && (
        <button
          type="button"
          className="suggestions-more"
          aria-label={appText(language, 'moreSuggestions')}
          onClick={() => scroller.current?.scrollBy({ left: scroller.current.clientWidth * 0.8, behavior: 'smooth' })}
        >
          <span aria-hidden="true">›</span>
        </button>
      )}
    </nav>
  );
}
