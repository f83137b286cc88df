/**
 * The socket link of a client (socket.io's Manager to the client's Socket): the connection, the
 * key session that encrypts its frames and builds its URL, and the close-code rules.
 * @module
 */
import type { ClientContext } from '../client-context.js';
import { ImError } from '../errors.js';
import type { KeyRing } from '../key-ring.js';
import { MessageType, type ChatMessage } from '../messages/types.js';
import type { ImClientOptions, WebSocketConstructor } from '../options.js';
import type { Store } from '../state/store.js';
import { CloseCodeHandler, haltReasonOf, isTerminalClose, type CloseCodeDeps } from './close-codes.js';
import type { ConnectionSnapshot } from './connection-snapshot.js';
import { Connection, type NetworkTarget } from './connection.js';
import { decodeFrame } from './frame-decode.js';
import { DefaultReconnectPolicy } from './reconnect-policy.js';

/** What the link needs from the client. @internal */
export type SocketLinkOptions = Pick<ClientContext, 'timers' | 'limits' | 'selfId' | 'clientId' | 'connectData' | 'notify'> &
  Pick<ImClientOptions, 'socketKey' | 'socketUrl' | 'reconnectPolicy'> & {
    WebSocket: WebSocketConstructor;
    network: NetworkTarget | null;
    /** The key session (the client holds it from its construction: start-up fills it). */
    keys: KeyRing;
    /** The connection snapshot store the client created before this code loaded. */
    store?: Store<ConnectionSnapshot>;
    /** Whether the network is up now (default: the window's `navigator.onLine`). */
    online?: boolean;
    /** Runs start-up (the key exchange) if it has not run. */
    start(): Promise<unknown>;
    /** Adds what proves the identity to the connect data (`d.clientSecret`, protocol §3a). */
    withIdentity?(data: Readonly<Record<string, unknown>>): Record<string, unknown>;
    /** Told of every welcome (type 60): the connect was accepted. */
    onWelcome?(message: ChatMessage): void;
    /** Whether the page is visible (the reconnect policy waits longer while hidden). */
    isVisible?(): boolean;
    /** Close-code rules of the identity (4004, 4006). */
    identity?: Pick<CloseCodeDeps, 'identityRefused' | 'identityGivenUp' | 'identityTokenRefused'>;
    /** Adds the member's identity token to the connect data (`d.identityToken`, protocol §3b). */
    withIdentityToken?(data: Record<string, unknown>): Promise<Record<string, unknown>>;
  };

/** A decoded frame. @internal */
export interface DecodedFrame {
  message: ChatMessage;
  encrypted: boolean;
}

/** The connection, its keys and its close codes. @internal */
export class SocketLink {
  /** The transport: state machine, heartbeat, reconnect. */
  readonly connection: Connection;
  /** The key session. */
  readonly keys: KeyRing;
  /** The close-code rules (4001 re-key, 4003 never reconnect, 4005 stop until the user acts). */
  readonly closeCodes: CloseCodeHandler;

  /** @param o - transports, limits and the client's identity */
  constructor(private readonly o: SocketLinkOptions) {
    const { limits } = o;
    this.keys = o.keys;
    this.closeCodes = new CloseCodeHandler({
      forgetKeys: () => this.keys.forget(),
      tooManyConnections: () => o.notify('tooManyConnections', 'error'),
      ...o.identity,
    });
    this.connection = new Connection({
      createUrl: () => this.createUrl(),
      WebSocket: o.WebSocket,
      timers: o.timers,
      heartbeatInterval: limits.heartbeatInterval,
      reconnectPolicy: this.closeCodes.wrap(
        o.reconnectPolicy ?? new DefaultReconnectPolicy({ firstPhaseDelay: limits.reconnectDelay, firstPhaseAttempts: limits.maxReconnectAttempts }),
        limits.maxReconnectAttempts,
      ),
      failAfterAttempts: limits.maxReconnectAttempts,
      isVisible: () => o.isVisible?.() ?? true,
      isTerminalClose,
      haltReason: haltReasonOf,
      network: o.network,
      heartbeat: () => this.keys.encode({ type: MessageType.Heartbeat, dataContent: '{}', from: o.selfId() ?? o.clientId() }),
      maxFrameSize: limits.maxFrameSize,
      ...(o.store ? { store: o.store } : {}),
      ...(o.online === undefined ? {} : { online: o.online }),
    });
    this.connection.on('close', ({ code, reason }) => this.closeCodes.handleClose(code, reason));
    this.connection.on('network', ({ online }) => {
      if (online) this.closeCodes.reset();
    });
  }

  /** True while the socket is open. */
  get isOpen(): boolean {
    return this.connection.state === 'open';
  }

  /** True while no attempt to connect is coming (a "never reconnect" close, or a policy that gave up). */
  get gaveUp(): boolean {
    return this.connection.halted;
  }

  /** Tries to connect now with a fresh backoff (a user action: retry, "reconnect now"); nothing while open. */
  reconnectNow(): void {
    this.closeCodes.reset();
    this.connection.reconnect();
  }

  /** Opens the socket (a manual connect: refusals are counted afresh). */
  connect(): void {
    this.closeCodes.reset();
    this.connection.connect();
  }

  /** Encodes a message into a frame (encrypted when the AES switch is on). */
  encode(message: ChatMessage): string {
    return this.keys.encode(message);
  }

  /** Writes a frame on the open socket. */
  write(frame: string): boolean {
    return this.connection.send(frame);
  }

  /** Encodes and writes a message when the socket is open. */
  send(message: ChatMessage): boolean {
    return this.isOpen && this.connection.send(this.keys.encode(message));
  }

  /**
   * Decodes a frame; a welcome means the connect check passed.
   * @throws FrameError when it neither parses nor decrypts
   */
  decode(data: unknown): DecodedFrame {
    const decoded = decodeFrame(data, this.keys.keys?.userKey);
    if (decoded.message.type === MessageType.Welcome) {
      this.closeCodes.reset();
      this.o.onWelcome?.(decoded.message);
    }
    return decoded;
  }

  private async createUrl(): Promise<string> {
    await this.o.start();
    const { socketKey, socketUrl } = this.o;
    const base = this.o.withIdentity ? this.o.withIdentity(this.o.connectData()) : { ...this.o.connectData() };
    const data = this.o.withIdentityToken ? await this.o.withIdentityToken(base) : base;
    const url = await this.keys.socketUrl({ socketKey, socketUrl, clientId: this.o.clientId(), data });
    if (url === null) throw new ImError('not-started', 'Start-up keys are not loaded; cannot connect.');
    return url;
  }
}
