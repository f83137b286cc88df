/**
 * A first visit's chat is rendered once, with its newest messages (issue 24: a phone's first
 * screen). Without a stored first screen (`first-screen.ts`), the page used to mount the chat
 * right after the key exchange: React rendered the empty screen, then each frame of the welcome,
 * then the first history page, and on a phone (4x CPU) those renders and layouts held up the
 * connect and the page's own call. Now the boot screen stays until the first history page is in
 * (or failed, or no connect was made, or {@link FIRST_PAGE_WAIT_MS} passed), and React renders
 * the chat once, as it does a returning visitor's stored rows. The client's notices of the wait
 * are held for the chat meanwhile ({@link AppRuntime.holdNotices}). While it waits, the boot screen
 * lays out samples of the chat's text styles ({@link warmChatText}), and while React renders the
 * chat its spinner stands still ({@link pauseBootSpinner}).
 * @module
 */
import type { ImClient } from '@kefu-im/sdk';
import type { AppRuntime } from './runtime.js';

/** The longest a first visit keeps the boot screen for its first history page, ms. */
export const FIRST_PAGE_WAIT_MS = 1_500;

/**
 * Waits for the first history page of `client`, asked for as soon as `connected` says the page
 * connected (the call waits for the welcome, as the list's own first call does; the list,
 * mounted later, finds the page held, or the same call in flight).
 * @param client - the conversation's client
 * @param connected - resolves true once `client.connect()` was called, false when the page does not connect
 * @param waitMs - the longest wait, ms
 * @param timers - `setTimeout` and `clearTimeout` (injected in tests)
 * @returns resolves once the page is in, or failed, or no connect was made, or after `waitMs`; never rejects
 */
export function awaitFirstPage(
  client: Pick<ImClient, 'loadOlder'>,
  connected: Promise<boolean>,
  waitMs: number = FIRST_PAGE_WAIT_MS,
  timers: Pick<typeof globalThis, 'setTimeout' | 'clearTimeout'> = globalThis,
): Promise<void> {
  const page = connected.then(
    (ok) => (ok ? client.loadOlder().then(() => undefined, () => undefined) : undefined),
    () => undefined,
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<void>((resolve) => (timer = timers.setTimeout(resolve, waitMs)));
  return Promise.race([page, limit]).then(() => timers.clearTimeout(timer));
}

/** The longest the boot spinner stays still while the chat is rendered in its place, ms. */
export const SPINNER_PAUSE_MS = 500;

/**
 * Stops the boot screen's spinner while React renders a first visit's chat in its place (as a
 * transition, in slices): its animation had the page draw a frame of the boot screen between every
 * two slices (on a phone, 4x, 5-9% of the first screen). The chat replaces the boot screen when it
 * commits, ~150-250 ms later on a phone; should that take longer than `pauseMs` (a part of the chat
 * waits for its code on a slow network), the spinner turns again, so that the page never looks stuck.
 * @param root - the app's root element (holding the boot screen, `.boot`)
 * @param pauseMs - the longest pause, ms
 * @param timers - `setTimeout` (injected in tests)
 */
export function pauseBootSpinner(root: ParentNode, pauseMs: number = SPINNER_PAUSE_MS, timers: Pick<typeof globalThis, 'setTimeout'> = globalThis): void {
  const boot = root.querySelector('.boot');
  if (!boot) return;
  boot.classList.add('boot-rendering');
  timers.setTimeout(() => boot.classList.remove('boot-rendering'), pauseMs);
}

/**
 * The text styles of the chat's first screen, as its own markup gives them (a class, and the
 * element under it where the style is the element's): the header's title, the suggestions' title,
 * a message's meta line (sender, time, read mark), a bubble, a chip, a badge. Each is a font size
 * and weight the chat's first layout asks the system for.
 */
export const CHAT_TEXT_STYLES: readonly { className: string; element?: 'h1' }[] = Object.freeze([
  { className: 'chat-title', element: 'h1' },
  { className: 'suggestions-title' },
  { className: 'msg-meta' },
  { className: 'bubble' },
  { className: 'chip-btn' },
  { className: 'badge' },
]);

/** The sample laid out in each style: a Chinese and a Latin letter (the chat's fonts for both scripts). */
export const TEXT_SAMPLE = '字a';

/**
 * Lays out, hidden beside the boot screen, a sample of each of the chat's text styles
 * ({@link CHAT_TEXT_STYLES}) while a first visit's key exchange waits on the network. A first
 * layout of text gets each font and size from the system (on Linux, a synchronous request to the
 * browser process per size, and a walk of the named families for Chinese) and loads each font's
 * tables for shaping: done in the chat's own first layout, that was ~45 ms of a phone's (4x) single
 * task of 75-125 ms that renders the chat (bench/README.md, tenth pass). Done here, in a frame of
 * the boot screen the page spends mostly waiting anyway, the chat's layout finds them ready. (Half
 * the styles in each of two frames measured worse: bench/README.md.) The samples are hidden from
 * sight and from screen readers, and go when the chat replaces the root's content.
 * @param root - the app's root element (holding the boot screen, `.boot`); nothing is done without one
 */
export function warmChatText(root: ParentNode): void {
  const boot = root.querySelector('.boot');
  if (!boot) return;
  const doc = boot.ownerDocument;
  const box = doc.createElement('div');
  box.className = 'text-warmup';
  box.setAttribute('aria-hidden', 'true');
  for (const { className, element } of CHAT_TEXT_STYLES) {
    const styled = doc.createElement(element ? 'div' : 'span');
    styled.className = className;
    const text = element ? styled.appendChild(doc.createElement(element)) : styled;
    text.textContent = TEXT_SAMPLE;
    box.append(styled);
  }
  // beside the boot screen, not in it: the samples take the page's fonts, not the boot screen's own
  boot.after(box);
}
