/**
 * A part of the page whose code is loaded on demand ({@link retryingLazy}): shown through
 * `Suspense` while its chunk loads, and kept from taking the page down when the chunk cannot be
 * fetched (offline, or a deploy that replaced the files): without a boundary React unmounts the
 * whole tree and the visitor is left with a blank page. A part that failed loads again the next
 * time it is shown (the next open of a dialog), not only after a reload.
 * @module
 */
import {
  Component,
  createContext,
  createElement,
  lazy,
  Suspense,
  useContext,
  useState,
  type ComponentProps,
  type ComponentType,
  type ErrorInfo,
  type LazyExoticComponent,
  type ReactElement,
  type ReactNode,
} from 'react';

/** Counts the showings of lazy parts and the failures of their loads, in one order. */
let moments = 0;

/** When the enclosing {@link LazyPart} was first shown (0 outside one: never loads again). */
const ShownAt = createContext(0);

/** One load of a part, and when it failed (it is tried again by parts shown after that). */
interface Load<T extends ComponentType<any>> {
  Part: LazyExoticComponent<T>;
  failedAt: number | null;
}

/**
 * `React.lazy` that loads again after a failure. `React.lazy` keeps a rejected load for good, so
 * a dialog whose chunk could not be fetched once would fail at every open until a reload. Here the
 * parts shown when the load failed keep failing (their {@link LazyPart} shows `failed`); a part
 * shown in a {@link LazyPart} opened after the failure loads it again.
 * @param load - imports the part's module, e.g. `() => import('./dialog.js')`
 */
// `ComponentType<any>`: React.lazy's own bound (props are checked where the part is used)
export function retryingLazy<T extends ComponentType<any>>(load: () => Promise<{ default: T }>): ComponentType<ComponentProps<T>> {
  const start = (): Load<T> => {
    const attempt: Load<T> = {
      Part: lazy(() =>
        load().catch((error: unknown) => {
          attempt.failedAt = ++moments;
          throw error;
        }),
      ),
      failedAt: null,
    };
    return attempt;
  };
  let current = start();
  function RetryingPart(props: ComponentProps<T>): ReactElement {
    const shownAt = useContext(ShownAt);
    if (current.failedAt !== null && shownAt > current.failedAt) current = start();
    return createElement(current.Part, props);
  }
  return RetryingPart;
}

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
 * Shows a lazily loaded part (made with {@link retryingLazy}): `loading` until its chunk is there,
 * `failed` (and `onFailure`) if it cannot be loaded. Give it a `key` per use (e.g. per dialog) so
 * that a failure does not stick to the next part shown in the same place: a new one is a new
 * showing, and a part that failed before it loads again.
 */
export function LazyPart({ children, loading = null, failed = null, onFailure }: LazyPartProps): ReactElement {
  const [shownAt] = useState(() => ++moments);
  return (
    <ShownAt.Provider value={shownAt}>
      <FailureBoundary failed={failed} onFailure={onFailure}>
        <Suspense fallback={loading}>{children}</Suspense>
      </FailureBoundary>
    </ShownAt.Provider>
  );
}
