// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { lazy, type ComponentType } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LazyPart } from './lazy-part.js';

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
