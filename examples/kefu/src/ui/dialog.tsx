/**
 * An accessible modal dialog: labelled by its title, focus moved into it on open and back to
 * where it was on close, Tab kept inside, Escape closes, and the page behind made inert.
 * @module
 */
import { useEffect, useId, useRef, type ReactElement, type ReactNode, type KeyboardEvent } from 'react';
import { createPortal } from 'react-dom';
import { Icon } from './icons.js';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** How many dialogs are open (the page stays inert while any is). */
let openDialogs = 0;

function setPageInert(inert: boolean): void {
  const root = document.getElementById('root');
  if (root) root.inert = inert;
}

/** Props of {@link Dialog}. */
export interface DialogProps {
  /** The title (the dialog's accessible name). */
  title: string;
  /** Called on Escape, on the close button and on a click on the backdrop. */
  onClose: () => void;
  /** The content. */
  children: ReactNode;
  /** Extra class. */
  className?: string;
  /** The close button's label. */
  closeLabel: string;
  /** A description element's id (aria-describedby). */
  describedBy?: string;
}

/** The modal dialog, rendered into `document.body`. */
export function Dialog({ title, onClose, children, className, closeLabel, describedBy }: DialogProps): ReactElement {
  const titleId = useId();
  const box = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    openDialogs += 1;
    setPageInert(true);
    const el = box.current;
    const first = el?.querySelector<HTMLElement>('[data-autofocus]') ?? el?.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? el)?.focus();
    return () => {
      openDialogs -= 1;
      if (openDialogs === 0) setPageInert(false);
      if (previous?.isConnected) previous.focus();
    };
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onCloseRef.current();
      return;
    }
    if (event.key !== 'Tab' || !box.current) return;
    const items = Array.from(box.current.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((e) => e.offsetParent !== null || e === document.activeElement);
    if (items.length === 0) {
      event.preventDefault();
      return;
    }
    const first = items[0];
    const last = items[items.length - 1];
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last?.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first?.focus();
    }
  };

  return createPortal(
    <div className="backdrop" onMouseDown={(e) => e.target === e.currentTarget && onCloseRef.current()}>
      <div
        ref={box}
        className={className ? `dialog ${className}` : 'dialog'}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={describedBy}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <div className="dialog-head">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="icon-btn" aria-label={closeLabel} onClick={() => onCloseRef.current()}>
            <Icon name="close" />
          </button>
        </div>
        <div className="dialog-body">{children}</div>
      </div>
    </div>,
    document.body,
  );
}

/** Props of {@link FormActions}. */
export interface FormActionsProps {
  /** Closes the dialog without submitting. */
  onCancel: () => void;
  /** True while the form is being submitted. */
  busy: boolean;
  /** The cancel button's text. */
  cancelLabel: string;
  /** The submit button's text. */
  submitLabel: string;
}

/** The cancel and submit buttons at the foot of a dialog form. */
export function FormActions({ onCancel, busy, cancelLabel, submitLabel }: FormActionsProps): ReactElement {
  return (
    <div className="dialog-actions">
      <button type="button" className="btn" onClick={onCancel}>
        {cancelLabel}
      </button>
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {submitLabel}
      </button>
    </div>
  );
}
