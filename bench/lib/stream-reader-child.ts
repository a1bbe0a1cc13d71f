/**
 * The floor under a streamed answer's cost: a bare reader in a process of its own that asks the fake
 * provider for a streamed answer and reads it to its end with undici's `request` (what llmor's provider
 * call sends through, ADR 0047) — no SSE parsing, no storing. Asked `{ type: 'read', url, body, replies,
 * relay }`, it answers `{ type: 'read', cpuMs }`: its CPU per answer. With `relay`, each piece it reads is
 * also emitted as text to the socket.io clients connected to it (a bare socket.io server on the `url` its
 * `ready` message names, websocket only, as llmor's relay): the floor under a relayed chunk.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { request } from 'undici';

const relayServer = createServer();
const io = new Server(relayServer, { serveClient: false, transports: ['websocket'] });
relayServer.listen(0, '127.0.0.1');
await once(relayServer, 'listening');

process.on(
  'message',
  async (msg: { type: string; url: string; body: unknown; replies: number; relay?: boolean }) => {
    if (msg.type !== 'read') return;
    const cpu = process.cpuUsage();
    for (let i = 0; i < msg.replies; i++) {
      const { body } = await request(msg.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench' },
        body: JSON.stringify(msg.body),
      });
      const decoder = new TextDecoder();
      for await (const piece of body) {
        if (msg.relay) io.emit('chunk', decoder.decode(piece, { stream: true }));
      }
    }
    const { user, system } = process.cpuUsage(cpu);
    process.send?.({ type: 'read', cpuMs: (user + system) / 1000 / msg.replies });
  },
);
process.on('disconnect', () => process.exit(0));
const { port } = relayServer.address() as AddressInfo;
process.send?.({ type: 'ready', url: `http://127.0.0.1:${port}` });
