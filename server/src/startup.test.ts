import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUserByEmail } from './modules/auth/repo';
import { loadConfig } from './platform/config';
import { verifyPassword } from './platform/crypto';
import { openDatabase } from './platform/db';
import { type SeedResult, seed } from './seed';
import { startServer } from './server';
import { startupFailure } from './startup';

describe('first start', () => {
  let blocker: Server;
  let port: number;
  beforeAll(async () => {
    blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    port = (blocker.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => blocker.close(() => resolve())));

  it('shows the generated password before anything can fail, and names a taken port in one line', async () => {
    const seen: SeedResult[] = [];
    const config = loadConfig({
      DATA_DIR: 'memory://',
      LOG_LEVEL: 'silent',
      PORT: String(port),
      ROLES: 'api',
    });
    const failure = await startServer(config, { onSeeded: (s) => seen.push(s) }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(seen).toHaveLength(1);
    expect(seen[0]!.generatedPassword).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(startupFailure(failure)).toBe(
      `llmor failed to start: 127.0.0.1:${port} is already in use — stop the other process or set PORT.`,
    );
  });

  it('says in one line that the database does not answer', async () => {
    const config = loadConfig({
      DATA_DIR: 'memory://',
      LOG_LEVEL: 'silent',
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
    });
    const failure = await startServer(config).then(
      () => null,
      (err: unknown) => err,
    );
    expect(startupFailure(failure)).toBe(
      'llmor failed to start: nothing answers at 127.0.0.1:1 — is the database (DATABASE_URL) or Redis (REDIS_URL) running?',
    );
  });

  it('resets an existing admin’s password from SEED_ADMIN_PASSWORD, once', async () => {
    const database = await openDatabase({ dataDir: 'memory://' });
    try {
      const email = 'admin@reset.test';
      expect(await seed(database.db, email, 'first password')).toMatchObject({
        created: true,
        passwordReset: false,
      });
      expect(await seed(database.db, email, undefined)).toMatchObject({
        created: false,
        passwordReset: false,
      });
      expect(await seed(database.db, email, 'second password')).toMatchObject({
        created: false,
        passwordReset: true,
      });
      const admin = await findUserByEmail(database.db, email);
      expect(await verifyPassword('second password', admin!.passwordHash)).toBe(true);
      expect(await seed(database.db, email, 'second password')).toMatchObject({ passwordReset: false });
    } finally {
      await database.close();
    }
  });
});
