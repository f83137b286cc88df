/**
 * Toasts (spec §4, §8, §9: shown, then hidden after their duration, default 2 000 ms): the
 * notices of the client and the app's own confirmations, in the current language.
 * @module
 */
import type { NoticeLevel } from '@kefu-im/sdk';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactElement, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

/** The spec's default toast duration, ms. */
export const TOAST_DURATION = 2_000;

/** One toast. */
export interface Toast {
  /** Identity. */
  id: number;
  /** The text. */
  text: string;
  /** Severity (spec default type: success). */
  level: NoticeLevel;
}

/** Shows a toast. */
export type ShowToast = (text: string, level?: NoticeLevel, duration?: number) => void;

const ToastContext = createContext<ShowToast | null>(null);

/** The function that shows a toast. @throws Error outside a {@link ToastProvider} */
export function useToast(): ShowToast {
  const show = useContext(ToastContext);
  if (!show) throw new Error('useToast: no ToastProvider above this component');
  return show;
}

/** Holds the toasts and renders them above everything (dialogs included). */
export function ToastProvider({ children }: { children: ReactNode }): ReactElement {
  const [toasts, setToasts] = useState<readonly Toast[]>([]);
  const nextId = useRef(1);
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending) clearTimeout(timer);
      pending.clear();
    };
  }, []);
  const show = useCallback<ShowToast>((text, level = 'success', duration = TOAST_DURATION) => {
    if (typeof text !== 'string' || text.trim() === '') return;
    const id = nextId.current++;
    setToasts((list) => [...list.filter((t) => t.text !== text), { id, text, level }].slice(-3));
    const timer = setTimeout(() => {
      timers.current.delete(timer);
      setToasts((list) => list.filter((t) => t.id !== id));
    }, Math.max(0, duration));
    timers.current.add(timer);
  }, []);
  const value = useMemo(() => show, [show]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      {createPortal(
        <div className="toasts" role="status" aria-live="polite">
          {toasts.map((t) => (
            <div key={t.id} className={`toast toast-${t.level}`}>
              {t.text}
            </div>
          ))}
        </div>,
        document.body,
      )}
    </ToastContext.Provider>
  );
}
