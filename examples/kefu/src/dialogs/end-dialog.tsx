/**
 * Confirms ending the conversation (issue 10): the shared {@link EndConfirm}; ending sends the end
 * and closes.
 * @module
 */
import { useImClient } from '@kefu-im/react';
import type { ReactElement } from 'react';
import { EndConfirm } from './end-confirm.js';
import type { ChatDialogProps } from './types.js';

/** The end-conversation confirmation. */
export default function EndDialog({ onClose, onDone }: ChatDialogProps): ReactElement {
  const client = useImClient();
  return (
    <EndConfirm
      tone="primary"
      onClose={onClose}
      onEnd={() => {
        client.endConversation();
        onDone?.();
      }}
    />
  );
}
