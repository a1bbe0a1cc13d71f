/**
 * The server under measurement, started by run.ts pinned to one core. It serves the real app plus
 * two twins of one trivial handler: one behind the session signature check, one public, so the
 * only difference between them is the check. It answers `cpu` messages with its CPU time so far.
 */
import { buildApp } from '@llmor/server/app';
import { loadConfig } from '@llmor/server/platform/config';
import { SecretBox } from '@llmor/server/platform/crypto';
import { openDatabase } from '@llmor/server/platform/db/index';
import { MemoryRateLimiter } from '@llmor/server/platform/rate-limit';
import { seed } from '@llmor/server/seed';

const config = loadConfig({
  DATA_DIR: 'memory://',
  LOG_LEVEL: 'error',
  SEED_ADMIN_PASSWORD: 'bench-password',
});
const database = await openDatabase({ dataDir: config.DATA_DIR });
await seed(database.db, config.SEED_ADMIN_EMAIL, config.SEED_ADMIN_PASSWORD);
const { app } = await buildApp({
  config,
  database,
  rateLimiter: new MemoryRateLimiter(),
  secretBox: new SecretBox(Buffer.alloc(32, 1)),
  serveWeb: false,
});
const payload = { data: { id: 1, key: 'demo', name: 'Demo Vendor', currency: 'CHF' } };
app.get('/v1/bench/echo', async () => payload);
app.get('/v1/bench/echo-public', { config: { auth: 'none' } }, async () => payload);
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
process.send?.({ type: 'ready', port: typeof address === 'object' && address ? address.port : 0 });
process.on('message', (msg: { type: string }) => {
  if (msg.type === 'cpu') {
    const u = process.cpuUsage();
    process.send?.({ type: 'cpu', micros: u.user + u.system });
  }
  if (msg.type === 'stop')
    void app
      .close()
      .then(() => database.close())
      .then(() => process.exit(0));
});
