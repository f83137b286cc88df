/**
 * The command-line flags of the Chromium the browser tests (Playwright, `harness.ts`) and the
 * browser benches (a bare DevTools pipe, `bench/chat-browser/cdp.ts`) launch.
 *
 * Without {@link NO_BROWSER_UI_FEATURES}, Chromium 156 preloads its address-bar popup
 * (`chrome://omnibox-popup.top-chrome`, a WebUI page in a renderer of its own) for every new
 * browser context: ~0.6-1 s of CPU each on this 2-core machine, beside the page under test. A
 * phone's browser does no such work (bench/README.md, the first screen's tenth pass), and six
 * browser test files ran 71-72 s without it against 80-84 s with it.
 * @module
 */

/** Flags common to every launch (headless is the launcher's own option or flag). */
export const BASE_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] as const;

/** The Chromium features that preload the browser's own address-bar popup per browser context. */
export const NO_BROWSER_UI_FEATURES = ['PreloadTopChromeWebUI', 'WebUIOmniboxPopup', 'WebUIOmniboxFullPopup', 'WebUIOmniboxAimPopup'] as const;

/**
 * The features playwright-core (1.65.1) itself launches Chromium without (its `chromiumSwitches`),
 * repeated here: Chromium keeps only the last `--disable-features` switch, so one of ours after
 * Playwright's would silently drop its list. `chromium-args.e2e.test.ts` checks this list against
 * the browser Playwright launches.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
] as const;

/**
 * The one `--disable-features` switch for a list of features.
 * @param features - feature names (none empty, none with a comma)
 */
export function disableFeatures(features: readonly string[]): string {
  return `--disable-features=${features.join(',')}`;
}

/** The flags for a bare Chromium (no Playwright): the base ones and no address-bar popup. */
export const BARE_ARGS: readonly string[] = [...BASE_ARGS, disableFeatures(NO_BROWSER_UI_FEATURES)];

/** The flags `launchBrowser` hands to Playwright: the base ones, Playwright's features and ours off in one switch. */
export const PLAYWRIGHT_ARGS: readonly string[] = [...BASE_ARGS, disableFeatures([...PLAYWRIGHT_DISABLED_FEATURES, ...NO_BROWSER_UI_FEATURES])];

/**
 * The features a command line launches without: the value of its last `--disable-features`
 * switch (the one Chromium keeps), as on `chrome://version`.
 * @param commandLine - the command line, its switches separated by spaces
 */
export function disabledFeaturesOf(commandLine: string): string[] {
  const switches = commandLine.match(/--disable-features=\S*/g) ?? [];
  const last = switches[switches.length - 1];
  return last === undefined ? [] : last.slice('--disable-features='.length).split(',').filter((name) => name !== '');
}
