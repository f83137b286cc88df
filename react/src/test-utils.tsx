/**
 * Test helpers for the bindings: a real ImClient over the fake permit server and the scripted
 * WebSocket, a provider wrapper, and a render counter. Not part of the package.
 * @internal
 * @module
 */
import { ImClient, memoryStorage, type ChatMessage, type ImClientOptions } from '@kefu-im/sdk';
import { act } from '@testing-library/react';
import type { ReactNode } from 'react';
import { vi, expect } from 'vitest';
import { FakeNetwork, FakeWebSocket } from '../../src/socket/test-utils.js';
import { createFakePermit, makeSocketKey, type FakePermitOptions } from '../../test/helpers/fake-permit.js';
import { ImProvider } from './provider.js';

export { FakeNetwork, FakeWebSocket };

let socketKey: string | undefined;

/** One RSA key for the whole file (made on first use). */
function key(): string {
  socketKey ??= makeSocketKey().socketKey;
  return socketKey;
}

/** A client over the fake permit server and FakeWebSocket; nothing started. */
export function makeClient(permit: FakePermitOptions = {}, options: Partial<ImClientOptions> = {}) {
  const server = createFakePermit(permit);
  const network = new FakeNetwork();
  const client = new ImClient({
    baseUrl: 'http://im.test',
    socketUrl: 'ws://im.test/ws',
    socketKey: key(),
    connectData: { mchId: 7, platformId: 9 },
    fetch: server.fetch,
    WebSocket: FakeWebSocket,
    storage: memoryStorage(),
    window: network,
    document: null,
    receipts: { autoReadDelay: 0 },
    ...options,
  });
  return { client, server, network };
}

/** Options of a client for `<ImProvider options>`, over the fake permit server. */
export function clientOptions(permit: FakePermitOptions = {}, options: Partial<ImClientOptions> = {}) {
  const server = createFakePermit(permit);
  const opts: ImClientOptions = {
    baseUrl: 'http://im.test',
    socketUrl: 'ws://im.test/ws',
    socketKey: key(),
    connectData: { mchId: 7, platformId: 9 },
    fetch: server.fetch,
    WebSocket: FakeWebSocket,
    storage: memoryStorage(),
    window: null,
    document: null,
    ...options,
  };
  return { options: opts, server };
}

/** Waits for the client's socket, opens it and plays the welcome for user `u1`. */
export async function openSocket(userId = 'u1'): Promise<FakeWebSocket> {
  await vi.waitFor(() => expect(FakeWebSocket.last).toBeDefined());
  const ws = FakeWebSocket.last as FakeWebSocket;
  act(() => {
    ws.open();
    ws.receive(JSON.stringify({ type: 60, to: userId, sm: 1_700_000_000_000 }));
  });
  return ws;
}

/** Connects a client made with {@link makeClient} and opens its socket. */
export async function connect(client: ImClient, userId = 'u1'): Promise<FakeWebSocket> {
  await client.start();
  act(() => client.connect());
  return openSocket(userId);
}

/** The server sends a frame (unencrypted), inside act(). */
export function serverSends(ws: FakeWebSocket, message: ChatMessage): void {
  act(() => ws.receive(JSON.stringify(message)));
}

/** A wrapper for renderHook/render: the client, not started or connected by the provider. */
export function withClient(client: ImClient) {
  return function Wrapper({ children }: { children?: ReactNode }) {
    return (
      <ImProvider client={client} autoStart={false} autoConnect={false}>
        {children}
      </ImProvider>
    );
  };
}

/** Counts renders: `const renders = counter(); ... renders.hit()` in a component. */
export function counter() {
  let n = 0;
  return {
    hit: () => {
      n += 1;
    },
    get count() {
      return n;
    },
  };
}
