/**
 * The composer's `/shortcut` suggestions on the desk: typing `/` at the start of the draft opens a
 * listbox of the merchant's canned replies (`AgentDesk.canned.suggest`); ArrowDown/ArrowUp move,
 * Enter (or a click) puts the reply's text in the draft, Escape closes.
 * @module
 */
import { useEffect, useId, useMemo, useState, type KeyboardEvent, type ReactElement } from 'react';
import type { CannedReply } from '@kefu-im/sdk/agent';

/** Where the composer finds suggestions for a `/prefix` draft. */
export interface SlashSource {
  /** The replies for what follows `/`. */
  suggest(prefix: string): readonly CannedReply[];
  /** The listbox's accessible name. */
  label: string;
}

/** The state the composer needs: the listbox, and the key handler that runs before its own. */
export interface SlashState {
  /** The listbox (null when closed). */
  list: ReactElement | null;
  /** Attributes for the textarea (combobox semantics while open). */
  inputProps: Record<string, string | boolean | undefined>;
  /** Handles a key; true when it was used (the composer then does nothing else with it). */
  onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>): boolean;
}

/** The `/shortcut` suggestions for `draft`; `pick` replaces the draft with a reply's text. */
export function useSlashSuggestions(source: SlashSource | undefined, draft: string, pick: (text: string) => void): SlashState {
  const id = useId();
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const prefix = source && /^\/\S*$/.test(draft) ? draft.slice(1) : null;
  const items = useMemo(() => (prefix === null || source === undefined ? [] : source.suggest(prefix)), [prefix, source]);
  const open = items.length > 0 && dismissed !== draft;
  useEffect(() => setActive(0), [prefix]);

  const choose = (reply: CannedReply | undefined): void => {
    if (reply) pick(reply.text);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open) return false;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (i + step + items.length) % items.length);
      return true;
    }
    if (event.key === 'Enter' || event.key === 'Tab') {
      event.preventDefault();
      choose(items[Math.min(active, items.length - 1)]);
      return true;
    }
    if (event.key === 'Escape') {
      event.preventDefault();
      setDismissed(draft);
      return true;
    }
    return false;
  };
  const optionId = (i: number): string => `${id}-o${i}`;
  const list = open ? (
    <ul className="canned-suggestions" role="listbox" id={`${id}-list`} aria-label={source?.label}>
      {items.map((reply, i) => (
        <li
          key={reply.id}
          id={optionId(i)}
          role="option"
          aria-selected={i === active}
          className={i === active ? 'is-active' : undefined}
          onMouseDown={(e) => {
            e.preventDefault();
            choose(reply);
          }}
        >
          <span className="canned-shortcut">/{reply.shortcut}</span> <span className="canned-title">{reply.title}</span>
          <span className="canned-text muted">{reply.text}</span>
        </li>
      ))}
    </ul>
  ) : null;
  const inputProps = source
    ? {
        role: 'combobox',
        'aria-autocomplete': 'list',
        'aria-expanded': open,
        'aria-controls': open ? `${id}-list` : undefined,
        'aria-activedescendant': open ? optionId(Math.min(active, items.length - 1)) : undefined,
      }
    : {};
  return { list, inputProps, onKeyDown };
}
