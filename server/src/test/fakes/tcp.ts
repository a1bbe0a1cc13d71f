/**
 * A TCP listener on one port of 127.0.0.1 and ::1 that records every connection and closes it: the
 * target of the outbound guard's tests, which must see none (ADR 0020).
 */
import { createServer, type Server } from 'node:net';

export class ConnectionRecorder {
  /** The remote address of every connection accepted, in order. */
  readonly connections: string[] = [];

  private constructor(
    private readonly servers: Server[],
    readonly port: number,
  ) {}

  static async start(): Promise<ConnectionRecorder> {
    const servers: Server[] = [];
    let recorder: ConnectionRecorder | undefined;
    const listen = (host: string, port: number) =>
      new Promise<number>((resolve, reject) => {
        const server = createServer((socket) => {
          recorder?.connections.push(String(socket.remoteAddress));
          socket.destroy();
        });
        server.once('error', reject);
        server.listen(port, host, () => {
          servers.push(server);
          const address = server.address();
          resolve(typeof address === 'object' && address ? address.port : port);
        });
      });
    const port = await listen('127.0.0.1', 0);
    // IPv6 loopback on the same port where the machine has it.
    await listen('::1', port).catch(() => {});
    recorder = new ConnectionRecorder(servers, port);
    return recorder;
  }

  async close(): Promise<void> {
    await Promise.all(this.servers.map((s) => new Promise((resolve) => s.close(resolve))));
  }
}
