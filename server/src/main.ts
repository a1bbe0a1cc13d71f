import { ConfigError, loadConfig } from './platform/config';
import { DataDirLockedError } from './platform/db/lock';
import { startServer } from './server';

async function main() {
  const config = loadConfig();
  const server = await startServer(config);
  const lines = [`llmor is running at ${server.url}`];
  if (server.seed.generatedPassword) {
    lines.push(
      `Admin sign-in: ${server.seed.email} / ${server.seed.generatedPassword}  (shown once — keep it)`,
    );
  } else if (server.seed.created) {
    lines.push(`Admin sign-in: ${server.seed.email} with SEED_ADMIN_PASSWORD`);
  } else {
    lines.push(`Admin sign-in: ${server.seed.email} (password as set at first start)`);
  }
  process.stdout.write(`\n${lines.join('\n')}\n\n`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.app.log.info(`${signal} received, shutting down`);
    await server.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof DataDirLockedError) {
    process.stderr.write(`${err.message}\n`);
  } else {
    process.stderr.write(
      `llmor failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
  }
  process.exit(1);
});
