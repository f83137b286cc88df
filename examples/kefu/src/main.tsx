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
  let runtime: AppRuntime;
  try {
    runtime = new AppRuntime(await loadPublicConfig(serverOrigin(window.location.origin)), language);
  } catch {
    showFailure(root);
    return;
  }
  identity?.installIdentity(runtime, window, token);
  // The language's texts (the SDK's and the app's own) before the first paint: no zh flash.
  await runtime.setLanguage(runtime.i18n.language).catch(() => undefined);
  const spec = conversationOfPath(window.location.pathname);
  // Server time, then the keys and the AES switch (client.start), then mount.
  if (spec) {
    const client = runtime.acquire(conversationKey(spec));
    await client.start().catch(() => undefined);
    // The entry is read and the socket opened while React renders the first screen (the page's
    // provider finds it connecting): on a slow phone the handshake and the first render overlap.
    preparedConversation(client, runtime, spec, window.location.search).then(
      () => client.connect(),
      () => undefined,
    );
  }
  // A transition: React renders the first screen in slices and yields between them, so that the
  // socket's welcome and the first history page are handled while it renders (no long task).
  const appRoot = createRoot(root);
  startTransition(() =>
    appRoot.render(
      <StrictMode>
        <App runtime={runtime} />
      </StrictMode>,
    ),
  );
}

void boot();
