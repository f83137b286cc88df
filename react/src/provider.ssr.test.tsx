// @vitest-environment node
/**
 * Server rendering: `react-dom/server` in plain Node, where there is no window, document or
 * IntersectionObserver. The provider and every hook must render without touching them and
 * without starting anything (effects do not run on the server).
 */
import { renderToString } from 'react-dom/server';
import { useRef } from 'react';
import { describe, expect, it } from 'vitest';
import { ImProvider } from './provider.js';
import { clientOptions, FakeWebSocket } from './test-utils.js';
import { useConnection } from './use-connection.js';
import { useMessages } from './use-messages.js';
import { useSession, useClientState, useMerchantInfo } from './use-client-state.js';
import { useI18n } from './use-i18n.js';
import { useServerClock } from './use-clock.js';
import { useReceiptStatus, useVisibility } from './use-visibility.js';
import { useUploader } from './use-uploader.js';
import { useReadOnScroll } from './use-read-on-scroll.js';
import { useNotice } from './use-events.js';
import { useSend } from './use-send.js';

function Everything() {
  const connection = useConnection();
  const { messages, hasMore } = useMessages();
  const status = useSession((s) => s.status);
  const uuid = useClientState((s) => s.uuid);
  const merchant = useMerchantInfo();
  const { t, language } = useI18n();
  const now = useServerClock();
  const visible = useVisibility();
  const receipts = useReceiptStatus();
  const { items } = useUploader();
  const ref = useRef<HTMLDivElement>(null);
  useReadOnScroll(ref, { type: 100, fp: 'x', from: 'agent' });
  const { notice } = useNotice();
  useSend();
  return (
    <div ref={ref}>
      {[
        connection.state,
        String(connection.loggedIn),
        String(messages.length),
        String(hasMore),
        status,
        String(uuid.length > 0),
        String(merchant),
        language,
        t('send'),
        String(now > 0),
        String(visible),
        String(receipts.sent),
        String(items.length),
        String(notice),
      ].join('|')}
    </div>
  );
}

describe('safe under server rendering: no window access during render', () => {
  it('renders the provider and every hook with renderToString in plain Node, starting nothing', () => {
    expect(typeof window).toBe('undefined');
    expect(typeof document).toBe('undefined');
    FakeWebSocket.reset();
    // The defaults: window, document and storage looked up (and found missing) by the SDK.
    const { options, server } = clientOptions({}, { window: undefined, document: undefined, storage: undefined });
    const html = renderToString(
      <ImProvider options={options}>
        <Everything />
      </ImProvider>,
    );
    // Interface texts load with their catalogue (zh too), not at start-up: until then `t` gives the
    // key (a server that renders texts awaits `client.i18n.setLanguage(...)` first).
    expect(html).toBe('<div>closed|false|0|true|robot|true|null|zh|send|true|true|0|0|null</div>');
    expect(server.calls).toHaveLength(0);
    expect(FakeWebSocket.instances).toHaveLength(0);
  });
});
