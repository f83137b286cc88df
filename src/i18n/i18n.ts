/**
 * Text lookup with a zh fallback and lazily loaded catalogues (spec §1, §9).
 * @module
 */
import { Subscribable } from '../state/subscribable.js';
import { zhNotices } from './locales/zh-notices.js';
import {
  FALLBACK_LANGUAGE,
  normalizeLanguage,
  type Catalogue,
  type I18nKey,
  type I18nParams,
  type Language,
} from './languages.js';

/** Loads the catalogue of one language. */
export type CatalogueLoader = (language: Language) => Promise<Catalogue>;

/** The catalogues {@link loadCatalogue} has loaded: an `I18n` made later has them at once. */
const loaded = new Map<Language, Catalogue>();

/**
 * Loads a language's catalogue. Every language (zh too) is one explicit dynamic `import()` so
 * that bundlers put each catalogue in its own chunk, fetched only when chosen; only the zh texts
 * of the SDK's own notices are bundled with its start-up code. A loaded catalogue is kept: an
 * {@link I18n} with the default loader made afterwards starts with it.
 * @param language - a supported language
 * @returns its catalogue; rejects with a RangeError for an unsupported code
 */
export function loadCatalogue(language: Language): Promise<Catalogue> {
  return importCatalogue(language).then((catalogue) => {
    loaded.set(language, catalogue);
    return catalogue;
  });
}

/** One explicit dynamic `import()` per language (a chunk each). */
function importCatalogue(language: Language): Promise<Catalogue> {
  switch (language) {
    case 'zh':
      return import('./locales/zh.js').then((m) => m.zh);
    case 'zh-Hant':
      return import('./locales/zh-Hant.js').then((m) => m.zhHant);
    case 'en':
      return import('./locales/en.js').then((m) => m.en);
    case 'de':
      return import('./locales/de.js').then((m) => m.de);
    case 'es':
      return import('./locales/es.js').then((m) => m.es);
    case 'fr':
      return import('./locales/fr.js').then((m) => m.fr);
    case 'ja':
      return import('./locales/ja.js').then((m) => m.ja);
    case 'ko':
      return import('./locales/ko.js').then((m) => m.ko);
    case 'pt':
      return import('./locales/pt.js').then((m) => m.pt);
    case 'vi':
      return import('./locales/vi.js').then((m) => m.vi);
    default:
      return Promise.reject(new RangeError(`Unsupported language ${JSON.stringify(language)}`));
  }
}

/** Replaces `{name}` placeholders; placeholders without a parameter are left as they are. */
export function interpolate(text: string, params?: I18nParams): string {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = Object.prototype.hasOwnProperty.call(params, name) ? params[name] : undefined;
    return value === undefined || value === null ? whole : String(value);
  });
}

/** What {@link I18n.getSnapshot} returns: a new object whenever the shown texts change. */
export interface I18nSnapshot {
  /** The current language. */
  readonly language: Language;
  /** Whether the current language's own texts are loaded (until then see {@link I18n.t}). */
  readonly ready: boolean;
  /** Translates with the texts of this snapshot (same as {@link I18n.t}). */
  readonly t: (key: I18nKey, params?: I18nParams) => string;
}

/** Options of {@link I18n}. */
export interface I18nOptions {
  /** Loads catalogues; defaults to the built-in lazy loader (inject one in tests). */
  loader?: CatalogueLoader;
}

/**
 * The interface texts. A language's texts (zh, the key language, too) are loaded when
 * {@link I18n.setLanguage} chooses it; only the zh texts of the SDK's own notices are bundled.
 * Any text missing from a catalogue falls back to zh (once loaded).
 *
 * For React: `useSyncExternalStore(i18n.subscribe, i18n.getSnapshot)`.
 */
export class I18n extends Subscribable {
  private current: Language;
  private readonly catalogues = new Map<Language, Catalogue>();
  private readonly loader: CatalogueLoader;
  private request = 0;
  private snapshot: I18nSnapshot | null = null;

  /**
   * @param language - the initial language (normalised; unknown or none gives zh). With the default
   *   loader, the catalogues already loaded in this page (by another `I18n`, or a
   *   {@link loadCatalogue} call made early) are there at once; otherwise see {@link I18n.t} until
   *   `setLanguage` has loaded its texts.
   * @param options - an injectable catalogue loader
   */
  constructor(language?: string | null, options: I18nOptions = {}) {
    super();
    this.current = normalizeLanguage(language) ?? FALLBACK_LANGUAGE;
    this.loader = options.loader ?? loadCatalogue;
    if (!options.loader) loaded.forEach((catalogue, lang) => this.catalogues.set(lang, catalogue));
  }

  /** The current language (also what goes into `Accept-Language`). */
  get language(): Language {
    return this.current;
  }

  /** Whether the current language's own texts are loaded. */
  get ready(): boolean {
    return this.catalogues.has(this.current);
  }

  /**
   * Switches the language, loading its catalogue first (a no-op when it is current and loaded).
   * Unknown codes and "none" (`'no'`, `''`) give zh. When calls overlap, the last one wins.
   * @returns the language now current
   * @throws Error (rejects) when the catalogue cannot be loaded; the language then stays as it was
   */
  async setLanguage(language: string | null | undefined): Promise<Language> {
    const next = normalizeLanguage(language) ?? FALLBACK_LANGUAGE;
    const id = ++this.request;
    const wasLoaded = this.catalogues.has(next);
    if (!wasLoaded) {
      let catalogue: Catalogue;
      try {
        catalogue = await this.loader(next);
      } catch (cause) {
        if (id !== this.request) return this.current;
        throw new Error(`Could not load the "${next}" interface texts`, { cause });
      }
      this.catalogues.set(next, catalogue);
    }
    if (id !== this.request) return this.current;
    const changed = next !== this.current || !wasLoaded;
    this.current = next;
    if (changed) this.emit();
    return next;
  }

  /**
   * The text of `key` in the current language, falling back to zh, with `{param}` placeholders
   * filled from `params`. Until a catalogue has loaded, the SDK's own notices answer in zh (they
   * are bundled) and other keys with the key itself; so does a key no catalogue knows.
   * @example i18n.t('queuePosition', { position: 3 })
   */
  t(key: I18nKey, params?: I18nParams): string {
    return interpolate(this.text(this.catalogues.get(this.current), key), params);
  }

  /**
   * Whether `key` is a known text key (e.g. to map a server code to a text): a key of a loaded
   * catalogue (every catalogue has the same keys) or of the SDK's own notices.
   */
  has(key: string): key is I18nKey {
    const known = (texts: object | undefined): boolean => texts !== undefined && Object.prototype.hasOwnProperty.call(texts, key);
    return typeof key === 'string' && (known(zhNotices) || [...this.catalogues.values()].some(known));
  }

  /** The current language and texts; a new object only after a change. */
  readonly getSnapshot = (): I18nSnapshot => {
    if (!this.snapshot) {
      const language = this.current;
      const catalogue = this.catalogues.get(language);
      this.snapshot = Object.freeze({
        language,
        ready: catalogue !== undefined,
        t: (key: I18nKey, params?: I18nParams) => interpolate(this.text(catalogue, key), params),
      });
    }
    return this.snapshot;
  };

  /** `key` in `own`, else in zh (loaded or the bundled notices), else the key itself. */
  private text(own: Catalogue | undefined, key: I18nKey): string {
    return own?.[key] ?? this.catalogues.get(FALLBACK_LANGUAGE)?.[key] ?? (zhNotices as Partial<Catalogue>)[key] ?? String(key);
  }

  /** Drops the snapshot and notifies. */
  private emit(): void {
    this.snapshot = null;
    this.notify();
  }
}
