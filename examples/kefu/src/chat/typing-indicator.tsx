/**
 * Typing signals: on the visitor's page "<agent> is typing…" under the messages and the privacy
 * note that the merchant's agents may see the draft (sneak peek) when the merchant turned it on;
 * on the agent desk "visitor is typing…" with the draft when sneak peek is on.
 * @module
 */
import { useI18n, useMerchantInfo, useTyping } from '@kefu-im/react';
import type { ReactElement } from 'react';
import { appText } from '../env/app-texts.js';

/**
 * "<agent> is typing…": a polite live region whose text changes only when typing starts or stops,
 * so a screen reader announces it once, not at every keystroke of the agent.
 */
export function TypingIndicator(): ReactElement {
  const { t, language } = useI18n();
  const { typing, who } = useTyping();
  return (
    <p className="typing-indicator" role="status" aria-live="polite">
      {typing ? appText(language, 'agentTyping', { name: who || t('agent') }) : ''}
    </p>
  );
}

/** The privacy note of sneak peek, shown only when the merchant has it on (`getMerchantById` says `sneakPeek`). */
export function SneakPeekNote(): ReactElement | null {
  const { language } = useI18n();
  const on = useMerchantInfo()?.['sneakPeek'] === true;
  return on ? <p className="privacy-note">{appText(language, 'sneakPeekNote')}</p> : null;
}

/**
 * The desk's "visitor is typing…" for one conversation, with the visitor's draft when its merchant
 * has sneak peek on (a polite live region announcing the start of typing, not the draft).
 * @param props.visitor - the visitor's client id
 */
export function DeskTyping({ visitor }: { visitor: string }): ReactElement {
  const { language } = useI18n();
  const { typing, preview } = useTyping(visitor);
  return (
    <div className="desk-typing">
      <p className="desk-typing-state" role="status" aria-live="polite">
        {typing ? appText(language, 'visitorTyping') : ''}
      </p>
      {typing && preview !== undefined && preview !== '' && (
        <p className="draft-preview" aria-label={appText(language, 'draftPreview')}>
          {preview}
        </p>
      )}
    </div>
  );
}
