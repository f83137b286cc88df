/**
 * The FAQ category view (spec §3 `asConfig/categoryInfo`): the merchant's questions grouped by
 * category, one collapsible section each (the first open). Choosing a question asks it; the
 * robot's answer appears in the chat.
 * @module
 */
import type { FaqCategory } from '@kefu-im/sdk';
import { useI18n, useImClient } from '@kefu-im/react';
import { useEffect, useState, type ReactElement } from 'react';
import { useChat } from '../chat/conversation.js';
import { Dialog } from '../ui/dialog.js';
import type { ChatDialogProps } from './types.js';
import { appText } from '../env/app-texts.js';

/** The FAQ dialog. */
export default function FaqDialog({ onClose }: ChatDialogProps): ReactElement {
  const { t, language } = useI18n();
  const client = useImClient();
  const { info, ask } = useChat();
  const [categories, setCategories] = useState<FaqCategory[] | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    client.api.categoryInfo({ mchId: info.mchId, platformId: info.platformId }).then(
      (list) => live && setCategories(Array.isArray(list) ? list.filter((c) => Array.isArray(c.questions) && c.questions.length > 0) : []),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
    // The server answers in the interface language: load again when it changes.
  }, [client, info.mchId, info.platformId, language]);

  return (
    <Dialog title={appText(language, 'faqTitle')} onClose={onClose} closeLabel={t('close')} className="dialog-form">
      <div className="faq" aria-busy={categories === null && !failed}>
        {failed && <p className="muted">{appText(language, 'cannotOpenFaq')}</p>}
        {categories?.length === 0 && <p className="muted">{t('noResults')}</p>}
        {categories?.map((category, index) => (
          <details key={String(category.id)} className="faq-category" open={index === 0}>
            <summary>{category.name}</summary>
            <ul>
              {category.questions.map((q) => (
                <li key={String(q.id)}>
                  <button
                    type="button"
                    className="link-btn"
                    onClick={() => {
                      ask(q.id);
                      onClose();
                    }}
                  >
                    {q.question}
                  </button>
                </li>
              ))}
            </ul>
          </details>
        ))}
      </div>
    </Dialog>
  );
}
