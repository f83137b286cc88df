/**
 * A part of the page whose code is loaded on demand (`React.lazy`): shown through `Suspense`
 * while its chunk loads, and kept from taking the page down when the chunk cannot be fetched
 * (offline, or a deploy that replaced the files): without a boundary React unmounts the whole
 * tree and the visitor is left with a blank page.
 * @module
 */
import { Component, Suspense, type ErrorInfo, type ReactElement, type ReactNode } from 'react';

/** Props of {@link LazyPart}. */
export interface LazyPartProps {
  /** The lazily loaded part. */
  children: ReactNode;
  /** Shown while the chunk loads (nothing by default, so that a closed part takes no room). */
  loading?: ReactNode;
  /** Shown instead of the part when it failed (nothing by default). */
  failed?: ReactNode;
  /** Told once when the part failed (e.g. to close a dialog and say why). */
  onFailure?: (error: unknown) => void;
}

interface BoundaryProps {
  children: ReactNode;
  failed: ReactNode;
  onFailure: ((error: unknown) => void) | undefined;
}

/** Catches what the part throws (its rejected chunk, or a render error) and shows `failed`. */
class FailureBoundary extends Component<BoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, _info: ErrorInfo): void {
    this.props.onFailure?.(error);
  }

  override render(): ReactNode {
    return this.state.failed ? this.props.failed : this.props.children;
  }
}

/**
 * Shows a lazily loaded part: `loading` until its chunk is there, `failed` (and `onFailure`) if it
 * cannot be loaded. Give it a `key` per use (e.g. per dialog) so that a failure does not stick to
 * the next part shown in the same place.
 */
export function LazyPart({ children, loading = null, failed = null, onFailure }: LazyPartProps): ReactElement {
  return (
    <FailureBoundary failed={failed} onFailure={onFailure}>
      <Suspense fallback={loading}>{children}</Suspense>
    </FailureBoundary>
  );
}
