/**
 * Code that loads on first use (a dynamic `import()`), loaded through one rule: calls share one
 * load, a success is kept, and a failure (a chunk the network lost) is forgotten, so that the next
 * call loads again instead of failing until the page reloads.
 * @module
 * @internal
 */

/**
 * Wraps `load` into a memoised loader. While a load is in flight every call gets its promise; once
 * it succeeded every call gets the same value; once it failed, the rejection goes to the callers
 * of that load (and to `onError`) and the next call starts a new load.
 * @param load - starts the load, e.g. `() => import('./x.js')`; it returns a promise (never throws)
 * @param onError - told of each failed load, before its callers
 * @returns the loader
 * @internal
 */
export function lazy<T>(load: () => Promise<T>, onError?: (error: unknown) => void): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      onError?.(error);
      throw error;
    }));
}
