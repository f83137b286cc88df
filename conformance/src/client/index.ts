/**
 * An independent client of the kefu-im wire protocol (`docs/protocol.md`), written against the
 * protocol documents with `node:crypto` and `ws` only: no code of the SDK or of any server. The
 * conformance checks and the reference server's own tests speak to servers through it.
 * @module
 */

import { randomUUID } from 'node:crypto';
import { keyExchange, type Session } from './key-exchange.js';
import { TestSocket } from './socket.js';

export { ecb, gcm, hmacHex, rsaEncrypt, rsaPublicKey, unEcb, unGcm } from './crypto.js';
export { enc, encValue, http, isEnvelope, type EncKeys, type Envelope, type HttpAnswer, type HttpRequest } from './http.js';
export { fetchAesKey, fetchAesSwitch, fetchServerTime, fetchUserToken, keyExchange, newRequestKey, type Session } from './key-exchange.js';
export { connectUrl, signedConnectText, type ConnectForgery } from './connect.js';
export { identityToken, memberClaims, type IdentityTokenClaims } from './identity-token.js';
export { content, heldSecrets, isEvent, TestSocket, welcomeSecret, type CloseInfo, type FrameEncoding, type Msg } from './socket.js';

/** Where a server is: its host root, WebSocket endpoint and socket key. */
export interface ServerEndpoints {
  /** The host root (`http://host:port`). */
  url: string;
  /** The WebSocket endpoint. */
  socketUrl: string;
  /** `"<publicKey>,<secret>"`. */
  socketKey: string;
}

/**
 * A key session bound to a visitor (protocol §3a): the key exchange, then one accepted connect
 * of `clientId` (its socket closed again). Visitor-scoped calls need such a session.
 * @param server - where the server is
 * @param clientId - the visitor's client id (a new one by default)
 * @param d - the connect data
 */
export async function boundSession(server: ServerEndpoints, clientId: string = randomUUID(), d: Record<string, unknown> = {}): Promise<Session & { clientId: string }> {
  const session = await keyExchange(server.url);
  const socket = await TestSocket.connect(server.socketUrl, server.socketKey, session, clientId, d);
  await socket.close();
  return { ...session, clientId };
}
