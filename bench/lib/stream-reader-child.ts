/**
 * The floor under a streamed answer's cost: a bare reader in a process of its own that asks the fake
 * provider for a streamed answer and reads it to its end with undici's `request` (what llmor's provider
 * call sends through, ADR 0047) — no SSE parsing, no storing, no relay. Asked `{ type: 'read', url, body,
 * replies }`, it answers `{ type: 'read', cpuMs }`: its CPU per answer.
 */
import { request } from 'undici';

process.on('message', async (msg: { type: string; url: string; body: unknown; replies: number }) => {
  if (msg.type !== 'read') return;
  const cpu = process.cpuUsage();
  for (let i = 0; i < msg.replies; i++) {
    const { body } = await request(msg.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench' },
      body: JSON.stringify(msg.body),
    });
    for await (const _chunk of body) {
      // read and dropped
    }
  }
  const { user, system } = process.cpuUsage(cpu);
  process.send?.({ type: 'read', cpuMs: (user + system) / 1000 / msg.replies });
});
process.on('disconnect', () => process.exit(0));
process.send?.({ type: 'ready' });
