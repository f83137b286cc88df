/**
 * The root view (spec §2): one routed view, titles per route, the launch notification once
 * mounted, the global jump functions and the open-app helpers.
 * @module
 */
import { installJumpFunctions, postLaunch } from '@kefu-im/sdk/embed';
import { useEffect, useLayoutEffect, type ReactElement } from 'react';
import { Redirect, Route, Switch, useLocation, useParams } from 'wouter';
import { appText } from './env/app-texts.js';
import { forgetFirstScreen, pageStorage } from './runtime/first-screen.js';
import { installOpenAppHelpers, openAppEnv } from './runtime/open-app.js';
import { RuntimeContext, useAppTexts, useRuntime } from './runtime/context.js';
import type { AppRuntime } from './runtime/runtime.js';
import { ConversationPage, Loading } from './routes/conversation-page.js';
import { RedirectPage } from './routes/redirect-page.js';
import { StatusPage } from './routes/status-page.js';
import { routeTitleText } from './routes/titles.js';
import { LazyPart, retryingLazy } from './ui/lazy-part.js';
import { ToastProvider } from './ui/toaster.js';

const AgentDesk = retryingLazy(() => import('./agent/agent-desk.js'));

/** The launch notification is posted once per page (not again on StrictMode's re-run). */
let launched = false;

/** Keeps the document title and language in step with the route and the interface language. */
function DocumentTitle(): null {
  const [location] = useLocation();
  const { t, language } = useAppTexts();
  useLayoutEffect(() => {
    const title = routeTitleText(location, t, (key) => appText(language, key));
    if (title !== null && document.title !== title) document.title = title;
    // (set only when it changes: a new lang restyles the whole document, its fonts included)
    const lang = language === 'zh' ? 'zh-CN' : language === 'zh-Hant' ? 'zh-TW' : language;
    if (document.documentElement.lang !== lang) document.documentElement.lang = lang;
  }, [location, t, language]);
  return null;
}

/** The launch message, the jump functions, the open-app helpers and the fatal-close rule. */
function Globals(): null {
  const runtime = useRuntime();
  const [, navigate] = useLocation();
  useEffect(() => {
    if (launched) return;
    launched = true;
    postLaunch(window);
  }, []);
  useEffect(() => {
    const seg = (s: string): string => encodeURIComponent(s);
    const group = (id: string, name?: string): void => navigate(`/group/${seg(id)}${name ? `/${seg(name)}` : ''}`);
    const offJump = installJumpFunctions(window, { openChat: (id) => navigate(`/kefu/${seg(id)}`), openGroup: group, openChannel: group });
    const offOpen = installOpenAppHelpers(window, () => openAppEnv(window, runtime.i18n.t.bind(runtime.i18n)));
    const offFatal = runtime.onFatal((client) => {
      if (!runtime.owns(client)) return;
      forgetFirstScreen(pageStorage());
      navigate('/401', { replace: true });
    });
    return () => {
      offJump();
      offOpen();
      offFatal();
    };
  }, [runtime, navigate]);
  return null;
}

function KefuRoute(): ReactElement {
  const { id } = useParams<{ id?: string }>();
  return <ConversationPage key={`kefu:${id ?? ''}`} spec={{ route: 'kefu', id }} />;
}

function GroupRoute(): ReactElement {
  const { id, name } = useParams<{ id?: string; name?: string }>();
  return <ConversationPage key={`group:${id ?? ''}`} spec={{ route: 'group', id, name }} />;
}

/** The app. */
export function App({ runtime }: { runtime: AppRuntime }): ReactElement {
  return (
    <RuntimeContext.Provider value={runtime}>
      <ToastProvider>
        <DocumentTitle />
        <Globals />
        <Switch>
          <Route path="/">
            <Redirect to="/kefu" replace />
          </Route>
          <Route path="/kefu/:id?" component={KefuRoute} />
          <Route path="/group/:id?/:name?" component={GroupRoute} />
          <Route path="/redirect/*" component={RedirectPage} />
          <Route path="/404">
            <StatusPage code="404" />
          </Route>
          <Route path="/401">
            <StatusPage code="401" />
          </Route>
          <Route path="/agent">
            <LazyPart loading={<Loading />} failed={<StatusPage code="network" />}>
              <AgentDesk />
            </LazyPart>
          </Route>
          <Route>
            <Redirect to="/404" replace />
          </Route>
        </Switch>
      </ToastProvider>
    </RuntimeContext.Provider>
  );
}
