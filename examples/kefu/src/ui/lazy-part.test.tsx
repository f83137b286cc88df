// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { lazy, type ComponentType } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LazyPart, retryingLazy } from './lazy-part.js';

/** A lazy component whose chunk arrives (or fails) when the test says so. */
function controlledChunk(): { Part: ComponentType; deliver(): void; fail(error: Error): void } {
  let resolve: (module: { default: ComponentType }) => void = () => undefined;
  let reject: (error: Error) => void = () => undefined;
  const chunk = new Promise<{ default: ComponentType }>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return {
    Part: lazy(() => chunk),
    deliver: () => resolve({ default: () => <p>the part</p> }),
    fail: (error) => reject(error),
  };
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('issue 13: a lazily loaded part never takes the page down', () => {
  it('shows the loading placeholder, then the part', async () => {
    const chunk = controlledChunk();
    render(
      <LazyPart loading={<p>loading</p>}>
        <chunk.Part />
      </LazyPart>,
    );
    expect(screen.getByText('loading')).toBeTruthy();
    chunk.deliver();
    expect(await screen.findByText('the part')).toBeTruthy();
  });

  it('a chunk that cannot be fetched shows the failure placeholder, is reported once, and leaves the rest of the page', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined); // React logs the caught error
    const chunk = controlledChunk();
    const onFailure = vi.fn();
    render(
      <main>
        <h1>the chat</h1>
        <LazyPart failed={<p>could not load</p>} onFailure={onFailure}>
          <chunk.Part />
        </LazyPart>
      </main>,
    );
    const error = new TypeError('Failed to fetch dynamically imported module');
    chunk.fail(error);
    expect(await screen.findByText('could not load')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'the chat' })).toBeTruthy();
    expect(onFailure).toHaveBeenCalledTimes(1);
    expect(onFailure).toHaveBeenCalledWith(error);
  });

  it('shows nothing in place of a failed part by default', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const chunk = controlledChunk();
    const { container } = render(
      <div>
        <LazyPart>
          <chunk.Part />
        </LazyPart>
        <span>kept</span>
      </div>,
    );
    chunk.fail(new Error('offline'));
    await vi.waitFor(() => expect(container.innerHTML).toBe('<div><span>kept</span></div>'));
  });
});

/** React settles a rejected chunk on a later task: generous on a loaded machine. */
const SLOW = { timeout: 5_000 };

/** A module loader whose every load the test settles: `next()` is the latest load. */
function controlledLoads(): { load: () => Promise<{ default: ComponentType<{ label: string }> }>; calls: number; deliver(): void; fail(error: Error): void } {
  const pending: { resolve: (m: { default: ComponentType<{ label: string }> }) => void; reject: (e: Error) => void }[] = [];
  const loads = {
    calls: 0,
    load: () =>
      new Promise<{ default: ComponentType<{ label: string }> }>((resolve, reject) => {
        loads.calls++;
        pending.push({ resolve, reject });
      }),
    deliver: () => pending.shift()?.resolve({ default: ({ label }) => <p>{label}</p> }),
    fail: (error: Error) => pending.shift()?.reject(error),
  };
  return loads;
}

describe('issue 24: a part whose chunk failed loads again the next time it is shown', () => {
  it('a dialog that failed to load opens at the next try (React.lazy alone fails until a reload)', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const loads = controlledLoads();
    const Dialog = retryingLazy(loads.load);
    const onFailure = vi.fn();
    const view = render(
      <LazyPart key="first" failed={<p>could not load</p>} onFailure={onFailure}>
        <Dialog label="the dialog" />
      </LazyPart>,
    );
    await vi.waitFor(() => expect(loads.calls).toBe(1), SLOW);
    loads.fail(new TypeError('Failed to fetch dynamically imported module'));
    expect(await screen.findByText('could not load', {}, SLOW)).toBeTruthy();
    expect(onFailure).toHaveBeenCalledTimes(1);
    expect(loads.calls).toBe(1); // the failed showing does not hammer the network

    // closed, then opened again (a new LazyPart): it loads again and shows
    view.rerender(<main />);
    view.rerender(
      <LazyPart key="second" failed={<p>could not load</p>}>
        <Dialog label="the dialog" />
      </LazyPart>,
    );
    await vi.waitFor(() => expect(loads.calls).toBe(2), SLOW);
    loads.deliver();
    expect(await screen.findByText('the dialog', {}, SLOW)).toBeTruthy();
    expect(screen.queryByText('could not load')).toBeNull();
  });

  it('the parts shown when the load failed stay failed without loading again; one shown after it loads once for all', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const loads = controlledLoads();
    const Emoji = retryingLazy(loads.load);
    const three = ['a', 'b', 'c'].map((label) => (
      <LazyPart key={label} failed={<span>x</span>}>
        <Emoji label={label} />
      </LazyPart>
    ));
    const view = render(<div>{three}</div>);
    await vi.waitFor(() => expect(loads.calls).toBe(1), SLOW);
    loads.fail(new Error('offline'));
    await vi.waitFor(() => expect(screen.getAllByText('x')).toHaveLength(3), SLOW);
    expect(loads.calls).toBe(1);

    // the same three (same keys, same place) and two shown now
    const later = ['d', 'e'].map((label) => (
      <LazyPart key={label} failed={<span>x</span>}>
        <Emoji label={label} />
      </LazyPart>
    ));
    view.rerender(<div>{[...three, ...later]}</div>);
    await vi.waitFor(() => expect(loads.calls).toBe(2), SLOW);
    loads.deliver();
    expect(await screen.findByText('d', {}, SLOW)).toBeTruthy();
    expect(screen.getByText('e')).toBeTruthy();
    expect(screen.getAllByText('x')).toHaveLength(3);
    expect(loads.calls).toBe(2);
  });
});

