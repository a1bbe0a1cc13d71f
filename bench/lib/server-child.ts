/**
 * The servers under measurement (started by `http/run.ts` and `conversation/run.ts` as a child, so its CPU
 * time, its event loop and its garbage collector are theirs alone): the real
 * llmor of `bench/lib/llmor.ts` on the fake provider run.ts started (`PROVIDER_URL`), and beside it a bare
 * Fastify with no plugin, no hook and no schema that answers a fixed JSON body (the baseline). It answers
 * `cpu` messages with its CPU time so far, and takes from `bare` messages the body a bare route answers.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createClient } from '@llmor/server/modules/clients/service';
import { makeConversation } from '@llmor/server/modules/completion/testing';
import Fastify from 'fastify';
import { startBenchServer } from './llmor';

const { server, ctx, vendor, admin, app } = await startBenchServer(process.env.PROVIDER_URL!, {
  SEND_RATE_PER_MINUTE: '1000000',
  // conversation/run.ts joins 32 relay clients from one address.
  RELAY_SOCKETS_PER_ADDRESS: '64',
});
const client = await createClient(ctx, vendor.id, app.id, admin.id, {
  name: 'bench',
  active: true,
  request_rate_limit: null,
  request_rate_interval: null,
});
const conversations: string[] = [];
for (let i = 0; i < Number(process.env.CONVERSATIONS ?? 1); i++) {
  conversations.push((await makeConversation(ctx, app)).token);
}

/** The bare server's answers, by route (run.ts sends them: what the real routes answered). */
const bareBodies: Record<string, string> = {};
const bare = Fastify();
for (const url of ['/v1/account', '/v1/conversations/:token']) {
  bare.get(url, async (_request, reply) =>
    reply.header('content-type', 'application/json; charset=utf-8').send(bareBodies[url]),
  );
}
await bare.listen({ port: 0, host: '127.0.0.1' });
const bareAddress = bare.server.address();

process.send?.({
  type: 'ready',
  url: server.url,
  bareUrl: `http://127.0.0.1:${typeof bareAddress === 'object' && bareAddress ? bareAddress.port : 0}`,
  vendorKey: vendor.key,
  apiKey: client.full_token,
  conversations,
});
// HTTP_PROFILE=<file>: CPU profiles of the measured cells of llmor only (not the start, the warm-up nor the bare
// rows), one file per cell: <file>.1.cpuprofile, <file>.2.cpuprofile, … (areas.ts reads them together).
const profiler = new Session();
let profiles = 0;
process.on('message', async (msg: { type: string; url?: string; body?: string }) => {
  if (msg.type === 'profile' && process.env.HTTP_PROFILE) {
    if (!profiles++) {
      profiler.connect();
      await profiler.post('Profiler.enable');
      await profiler.post('Profiler.setSamplingInterval', { interval: 200 });
    }
    await profiler.post('Profiler.start');
    process.send?.({ type: 'profile' });
  }
  if (msg.type === 'profiled' && process.env.HTTP_PROFILE) {
    const { profile } = await profiler.post('Profiler.stop');
    writeFileSync(`${process.env.HTTP_PROFILE}.${profiles}.cpuprofile`, JSON.stringify(profile));
    process.send?.({ type: 'profiled' });
  }
  if (msg.type === 'cpu') {
    const u = process.cpuUsage();
    process.send?.({ type: 'cpu', micros: u.user + u.system });
  }
  if (msg.type === 'bare') {
    bareBodies[msg.url!] = msg.body!;
    process.send?.({ type: 'bare' });
  }
  if (msg.type === 'stop') stop();
});
// Also when run.ts ends without asking (it failed): the embedded PostgreSQL is stopped with the server.
process.on('disconnect', stop);
function stop() {
  void Promise.all([bare.close(), server.close()]).then(() => process.exit(0));
}
