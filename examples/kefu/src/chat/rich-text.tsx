/**
 * The text of a message as React elements, built from the SDK's `messageTokens`: plain text as
 * text nodes, `face[name]` as emoji images (named in the interface language), and links (only `http:`/`https:` that passed
 * `isSafeUrl`) as anchors. Nothing is ever set as HTML, so a message cannot inject markup or run
 * a `javascript:` link.
 * @module
 */
import type { ChatMessage } from '@kefu-im/sdk';
import { messageTokens } from '@kefu-im/sdk/format';
import { useI18n } from '@kefu-im/react';
import { Fragment, useMemo, type ReactElement } from 'react';
import { emojiName } from '../env/app-texts.js';
import { EmojiFace } from './emoji.js';

/** Props of {@link RichText}. */
export interface RichTextProps {
  /** The message (its type decides whether links and emoji are parsed). */
  message: Pick<ChatMessage, 'type' | 'dataContent'>;
}

/** The message text with emoji and clickable safe links. */
export function RichText({ message }: RichTextProps): ReactElement {
  const { type, dataContent } = message;
  const { language } = useI18n();
  const tokens = useMemo(() => messageTokens({ type, dataContent }), [type, dataContent]);
  return (
    <>
      {tokens.map((token, i) => {
        if (token.type === 'emoji') return <EmojiFace key={i} index={token.index} name={emojiName(language, token.index, token.name)} />;
        if (token.type === 'link') {
          return (
            <a key={i} href={token.href} target="_blank" rel="noopener noreferrer nofollow">
              {token.text}
            </a>
          );
        }
        return <Fragment key={i}>{token.text}</Fragment>;
      })}
    </>
  );
}
