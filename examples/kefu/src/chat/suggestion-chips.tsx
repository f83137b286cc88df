/**
 * The suggested questions of the session (type 201): chips above the composer while the robot
 * serves. Choosing one asks it; the robot's answer appears in the chat, marked as robot.
 * @module
 */
import { useI18n, useSession } from '@kefu-im/react';
import type { ReactElement } from 'react';
import { useChat } from './conversation.js';

/** The suggested questions (nothing when there are none or an agent serves). */
export function SuggestionChips(): ReactElement | null {
  const { t } = useI18n();
  const { ask } = useChat();
  const suggestions = useSession((s) => s.suggestions);
  const status = useSession((s) => s.status);
  if (status !== 'robot' || suggestions.length === 0) return null;
  return (
    <nav className="suggestions" aria-label={t('suggestedQuestions')}>
      <span className="suggestions-title">{t('suggestedQuestions')}</span>
      <ul>
        {suggestions.map((q) => (
          <li key={String(q.id)}>
            <button type="button" className="chip-btn" onClick={() => ask(q.id)}>
              {q.question}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
