/**
 * React access to the {@link AppRuntime} and its app-level texts.
 * @module
 */
import type { I18nSnapshot } from '@kefu-im/sdk';
import { createContext, useContext, useSyncExternalStore } from 'react';
import type { AppRuntime } from './runtime.js';

/** The runtime's context; set once by the root. */
export const RuntimeContext = createContext<AppRuntime | null>(null);

/** The app runtime. @throws Error outside the root */
export function useRuntime(): AppRuntime {
  const runtime = useContext(RuntimeContext);
  if (!runtime) throw new Error('useRuntime: no AppRuntime above this component');
  return runtime;
}

/** The app-level texts (language and `t`), re-rendering when the language changes. */
export function useAppTexts(): I18nSnapshot {
  const { i18n } = useRuntime();
  return useSyncExternalStore(i18n.subscribe, i18n.getSnapshot, i18n.getSnapshot);
}
