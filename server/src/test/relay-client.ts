/** Test support: real socket.io clients against a listening test server, with event queues and timeouts. */
import { RELAY_PATH, type RelayAuth } from '@llmor/contracts';
import { io, type Socket } from 'socket.io-client';

export interface Received {
  event: string;
  data: unknown;
}

/** A connected client that records every event it receives, in order. */
export class RelayClient {
  readonly received: Received[] = [];
  private waiters: (() => void)[] = [];

  private constructor(readonly socket: Socket) {
    socket.onAny((event: string, data: unknown) => {
      this.received.push({ event, data: event === 'message' ? JSON.parse(data as string) : data });
      for (const w of this.waiters.splice(0)) w();
    });
  }

  /**
   * `auth` says who connects (a console session: `Client.relayAuth()`); `headers` go with the handshake
   * (e.g. the `origin` of the page a browser would connect from).
   */
  static async connect(
    url: string,
    auth: RelayAuth,
    headers: Record<string, string> = {},
  ): Promise<RelayClient> {
    const socket = io(url, {
      path: RELAY_PATH,
      transports: ['websocket'],
      forceNew: true,
      reconnection: false,
      extraHeaders: headers,
      auth: { ...auth },
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    return new RelayClient(socket);
  }

  get id(): string {
    return this.socket.id!;
  }

  /** Resolves when the server closed the connection (a revocation), or after the timeout rejects. */
  async disconnected(timeoutMs = 5_000): Promise<void> {
    if (!this.socket.connected) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('still connected')), timeoutMs);
      this.socket.once('disconnect', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Emits and waits for the server's acknowledgement. */
  async ask(event: string, ...args: unknown[]): Promise<{ ok: boolean; error?: string }> {
    return this.socket.timeout(5_000).emitWithAck(event, ...args);
  }

  /** `message` events as {type, data}. */
  messages(): { type: string; data: unknown }[] {
    return this.received
      .filter((r) => r.event === 'message')
      .map((r) => r.data as { type: string; data: unknown });
  }

  /** Waits until `count` received events satisfy `match` (counting from `from`); fails after the timeout. */
  async waitFor(
    match: (r: Received) => boolean,
    opts: { count?: number; from?: number; timeoutMs?: number } = {},
  ) {
    const { count = 1, from = 0, timeoutMs = 5_000 } = opts;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hits = this.received.slice(from).filter(match);
      if (hits.length >= count) return hits;
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(
          `timed out waiting for events; received: ${JSON.stringify(this.received.slice(from))}`,
        );
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  waitForMessage(type: string, opts: { count?: number; from?: number; timeoutMs?: number } = {}) {
    return this.waitFor((r) => r.event === 'message' && (r.data as { type: string }).type === type, opts);
  }

  close(): void {
    this.socket.disconnect();
  }
}
