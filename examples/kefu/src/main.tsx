/**
 * Start-up (spec §4 "Start-up order"): apply the layout, read the server's public configuration,
 * fetch the server time, then the keys and the AES switch, then mount the app.
 * @module
 */
import { CLIENT_STATE_KEYS, FALLBACK_LANGUAGE, I18n, loadCatalogue, normalizeLanguage } from '@kefu-im/sdk';
import { applyLayout } from '@kefu-im/sdk/embed';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.js';
import { appTexts } from './env/app-texts.js';
import { loadPublicConfig, serverOrigin } from './env/public-config.js';
import { forgetFirstScreen, pageStorage, primeFirstScreen, readFirstScreen, type FirstScreen } from './runtime/first-screen.js';
import { awaitFirstPage, pauseBootSpinner, warmChatText } from './runtime/first-visit.js';
import { conversationKey, conversationOfPath, preparedConversation } from './runtime/prepare.js';
import { AppRuntime } from './runtime/runtime.js';
import './styles.css';

function storedLanguage(): string | undefined {
  try {
    return normalizeLanguage(window.localStorage.getItem(CLIENT_STATE_KEYS.language)) ?? undefined;
  } catch {
    return undefined;
  }
}

function showFailure(root: HTMLElement): void {
  const main = document.createElement('main');
  main.className = 'status-page';
  const heading = document.createElement('h1');
  heading.textContent = '!';
  const text = document.createElement('p');
  // a notice text: bundled with the SDK (the catalogue chunk may be as unreachable as the server)
  text.textContent = new I18n().t('networkError');
  main.append(heading, text);
  root.replaceChildren(main);
}

/** With a stored first screen, the key exchange starts once it is painted, or after this long, ms. */
const START_AFTER_MS = 1_000;

/** The stored first screen of this page's visitor (its client id as kept by the SDK's state). */
function readFirstScreenOf(storage: NonNullable<ReturnType<typeof pageStorage>>): FirstScreen | null {
  const clientId = storage.getItem(CLIENT_STATE_KEYS.uuid);
  return clientId ? readFirstScreen(storage, clientId, `${window.location.pathname}${window.location.search}`) : null;
}

// The member's identity (protocol §3b) comes from the entry link's `?identity=` or the framing
// page: its code loads only then, and the link's token leaves the address bar before anything else.
const identityCode = window.parent !== window || window.location.search.includes('identity=') ? import('./runtime/identity-bridge.js') : null;

async function boot(): Promise<void> {
  const identity = await identityCode?.catch(() => null);
  const token = identity?.takeIdentityParam(window) ?? null;
  applyLayout(window);
  const root = document.getElementById('root');
  if (!root) return;
  const language = storedLanguage();
  // The app texts of a returning visitor's language, and the SDK's texts of it (zh by default, a
  // chunk of its own too), are fetched while the configuration is read.
  if (language) void appTexts.load(language);
  void loadCatalogue(normalizeLanguage(language) ?? FALLBACK_LANGUAGE).catch(() => undefined);
  const spec = conversationOfPath(window.location.pathname);
  // A returning visitor's stored first screen (not when a new identity arrives with the link):
  // shown at once, with the configuration kept beside it.
  const storage = pageStorage();
  const stored = spec && token === null && storage ? readFirstScreenOf(storage) : null;
  const configCall = loadPublicConfig(serverOrigin(window.location.origin));
  let runtime: AppRuntime;
  try {
    runtime = new AppRuntime(stored ? stored.config : await configCall, language);
  } catch {
    showFailure(root);
    return;
  }
  if (stored) {
    // the server moved (another socket, key or host): start again with its configuration
    configCall.then(
      (config) => {
        if (JSON.stringify(config) !== JSON.stringify(stored.config)) {
          forgetFirstScreen(storage);
          window.location.reload();
        }
      },
      () => undefined,
    );
  }
  identity?.installIdentity(runtime, window, token);
  // The language's texts (the SDK's and the app's own) before the first paint: no zh flash. They
  // load while the key exchange runs (the client is built in the same language).
  const texts = runtime.setLanguage(runtime.i18n.language).catch(() => undefined);
  // Server time, then the keys and the AES switch (client.start), then the first history page,
  // then mount; with a stored first screen, mount at once and start once its rows are painted.
  let firstPage: Promise<void> | null = null;
  if (spec) {
    const client = runtime.acquire(conversationKey(spec));
    const primed = stored !== null && stored.clientId === client.clientId;
    let started: Promise<unknown>;
    if (primed) {
      // the key exchange once the stored rows are painted (or after a while, whatever the page shows)
      started = new Promise<void>((resolve) => {
        primeFirstScreen(client, stored, resolve);
        setTimeout(resolve, START_AFTER_MS);
      }).then(() => client.start().catch(() => undefined));
    } else {
      started = client.start().catch(() => undefined);
      // the chat's fonts are fetched while the key exchange waits on the network
      warmChatText(root);
      await started;
    }
    const connected = started.then(() =>
      preparedConversation(client, runtime, spec, window.location.search).then(
        () => {
          client.connect();
          return true;
        },
        () => false,
      ),
    );
    // a first visit: the chat renders once, with its newest messages (runtime/first-visit.ts)
    if (!primed) {
      runtime.holdNotices(client);
      firstPage = awaitFirstPage(client, connected);
    }
  }
  await texts;
  await firstPage;
  // React renders the first screen as a transition, in slices, yielding between them: a returning
  // visit's key exchange, welcome and first history page are handled while it renders, and no
  // slice is a long task (a first visit's chat rendered in one task was one of 100-150 ms on a
  // phone, 4x). A first visit awaits nothing more, so its boot spinner stops first (for a while:
  // pauseBootSpinner) and the slices follow each other. See bench/README.md, ninth pass.
  const appRoot = createRoot(root);
  const app = (
    <StrictMode>
      <App runtime={runtime} />
    </StrictMode>
  );
  if (firstPage) pauseBootSpinner(root);
  startTransition(() => appRoot.render(app));
}

void boot();
