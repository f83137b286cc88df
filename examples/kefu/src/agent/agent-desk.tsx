/**
 * The agent desk (`/agent`, beyond the spec, so that a human can really answer): log in with an
 * agent account (connect data `{ role: 'agent', account, password }`), then the workspace. The
 * login survives a reload as the session token the SDK's {@link AgentDesk} keeps in
 * `localStorage` (never the password); a refused token shows the login form again, and so does
 * "Log out everywhere" chosen on another desk of the account.
 * Loaded lazily, with its stylesheet (desk.css): visitors never download either.
 * @module
 */
import { resolveStorage, SUPPORTED_LANGUAGES, type ImClient } from '@kefu-im/sdk';
import { AgentDesk as Desk, clearAgentLogin, readAgentLogin } from '@kefu-im/sdk/agent';
import { ImProvider } from '@kefu-im/react';
import { useEffect, useId, useRef, useState, type FormEvent, type ReactElement } from 'react';
import { appText } from '../env/app-texts.js';
import { LANGUAGE_NAMES } from '../env/language-names.js';
import { useAppTexts, useRuntime } from '../runtime/context.js';
import { createAgentClient } from './agent-client.js';
import { browserLanguages, initialDeskLanguage, rememberDeskLanguage } from './desk-language.js';
import { AgentWorkspace } from './agent-workspace.js';
import { deskText } from './desk-texts.js';
import './desk.css';

/** The agent desk. */
export default function AgentDesk(): ReactElement {
  const runtime = useRuntime();
  const { t, language } = useAppTexts();
  const storage = useState(() => resolveStorage())[0];
  // The desk speaks the agent's pick, else the browser's language (before and after login, and
  // after a reload); the visitor page's language never leaks in.
  const [startLanguage] = useState(() => initialDeskLanguage(storage, browserLanguages()));
  const [kept] = useState(() => readAgentLogin(storage));
  const [session, setSession] = useState<{ client: ImClient; desk: Desk } | null>(() => (kept ? open(kept.account, { token: kept.token }, startLanguage) : null));
  const client = session?.client ?? null;
  const [account, setAccount] = useState(kept?.account ?? '');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const ids = { account: useId(), password: useId(), error: useId(), language: useId() };
  useEffect(() => {
    if (startLanguage) void runtime.setLanguage(startLanguage, session?.client).catch(() => undefined);
    // once, at start: a later pick goes through the selects
  }, []);

  /** A desk session; its client starts in `language` (a later login: the language the desk speaks by then). */
  function open(name: string, credential: { password: string } | { token: string }, language: string = runtime.i18n.language): { client: ImClient; desk: Desk } {
    const created = createAgentClient(runtime, name, credential, language);
    return { client: created, desk: new Desk(created, { storage }) };
  }

  // Destroy a client once it is no longer shown (deferred, so that StrictMode's simulated
  // unmount and remount keeps it).
  const shown = useRef<{ client: ImClient | null; mounted: boolean }>({ client: null, mounted: false });
  shown.current.client = client;
  useEffect(() => {
    const state = shown.current;
    state.mounted = true;
    if (!client) return undefined;
    // another desk of the account logged out everywhere: this one shows the login form, saying why
    const desk = session?.desk;
    const offElsewhere = desk?.login.store.subscribe(({ loggedOutElsewhere }) => {
      if (!loggedOutElsewhere) return;
      setError(deskText(language, 'loggedOutElsewhere'));
      setSession((s) => (s?.desk === desk ? null : s));
    });
    const off = runtime.onFatal((c) => {
      if (c !== client) return;
      const byToken = client.getConnectData().token !== undefined;
      clearAgentLogin(storage);
      setError(byToken ? appText(language, 'sessionExpired') : deskText(language, 'wrongCredentials'));
      setSession(null);
    });
    return () => {
      off();
      offElsewhere?.();
      state.mounted = false;
      setTimeout(() => {
        if (state.mounted && state.client === client) return;
        session?.desk.destroy();
        client.destroy();
      }, 0);
    };
  }, [client, session, runtime, storage, t, language]);

  const login = (event: FormEvent): void => {
    event.preventDefault();
    if (account.trim() === '' || password === '') {
      setError(t('fieldRequired', { field: account.trim() === '' ? t('account') : t('password') }));
      return;
    }
    setError('');
    setSession(open(account.trim(), { password }));
    setPassword('');
  };

  const logout = (everywhere: boolean): void => {
    const current = session;
    if (!current) return;
    const done = (): void => setSession((s) => (s === current ? null : s));
    // log out everywhere needs the connection (the workspace offers it only while logged in); refused, the desk stays
    if (everywhere) void current.desk.logoutEverywhere().then(done, () => undefined);
    else void current.desk.logout().finally(done);
  };

  if (session) {
    return (
      <ImProvider client={session.client}>
        <AgentWorkspace account={account.trim()} desk={session.desk} onLogout={() => logout(false)} onLogoutEverywhere={() => logout(true)} />
      </ImProvider>
    );
  }
  return (
    <main className="login">
      <form className="login-form" onSubmit={login} noValidate aria-describedby={error ? ids.error : undefined}>
        <h1>{appText(language, 'deskLogin')}</h1>
        <label className="field-label" htmlFor={ids.account}>
          {t('account')}
        </label>
        <input id={ids.account} className="field" autoComplete="username" value={account} onChange={(e) => setAccount(e.target.value)} required />
        <label className="field-label" htmlFor={ids.password}>
          {t('password')}
        </label>
        <input id={ids.password} className="field" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} required />
        <label className="field-label" htmlFor={ids.language}>
          {appText(language, 'language')}
        </label>
        <select
          id={ids.language}
          className="field"
          value={language}
          onChange={(e) => {
            rememberDeskLanguage(storage, e.target.value);
            void runtime.setLanguage(e.target.value).catch(() => undefined);
          }}
        >
          {SUPPORTED_LANGUAGES.map((lang) => (
            <option key={lang} value={lang} lang={lang}>
              {LANGUAGE_NAMES[lang]}
            </option>
          ))}
        </select>
        {error && (
          <p id={ids.error} className="field-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="btn btn-primary">
          {t('login')}
        </button>
      </form>
    </main>
  );
}
