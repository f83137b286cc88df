/**
 * The React context that carries the {@link ImClient}, and {@link useImClient}.
 * @module
 */
import type { ImClient } from '@kefu-im/sdk';
import { createContext, useContext } from 'react';

/** The context set by `ImProvider`. @internal */
export const ImClientContext = createContext<ImClient | null>(null);

/**
 * The client of the nearest `<ImProvider>`. Use it to call the SDK directly (`client.connect()`,
 * `client.rate(5)`, `client.api.*`).
 * @returns the client
 * @throws Error when no `<ImProvider>` is above the component
 */
export function useImClient(): ImClient {
  const client = useContext(ImClientContext);
  if (!client) throw new Error('useImClient: no <ImProvider> above this component. Wrap your chat UI in <ImProvider client={client}>.');
  return client;
}
