/**
 * A refused connect (protocol §3, §3a, §3b): the error the connect check throws, carrying the
 * close code and the short reason the socket is closed with.
 * @module
 */

import { CONNECT_REFUSED, IDENTITY_REFUSED } from './close-codes.js';

/** A refused connect: the socket is closed with {@link ConnectRefused.code} and this short reason. */
export class ConnectRefused extends Error {
  override name = 'ConnectRefused';
  constructor(
    message: string,
    /** The close code. */
    readonly code: number = CONNECT_REFUSED,
  ) {
    super(message);
  }
}

/** A refused identity: closed with 4004 before any welcome. */
export function identityRefused(): ConnectRefused {
  return new ConnectRefused('identity refused', IDENTITY_REFUSED);
}
