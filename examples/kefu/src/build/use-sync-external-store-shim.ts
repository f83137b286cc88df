/**
 * Stands in for the `use-sync-external-store/shim` package in the app's build (see the alias in
 * vite.config.ts). wouter imports that shim to support React 17 and older; with React 19 its
 * production code only forwards to React's own hook, yet it costs the bundle its fallback and a
 * CommonJS wrapper. This module forwards directly.
 * @module
 */
export { useSyncExternalStore } from 'react';
