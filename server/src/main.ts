import { loadConfig } from './platform/config';
import { startTracing } from './platform/tracing';
import type { SeedResult } from './seed';
import { startServer } from './server';
import { VERSION } from './start/version';
import { startupFailure } from './startup';

/** The admin sign-in line, printed as soon as the seed ran (before listening can fail). */
function adminLine(seed: SeedResult): string {
  if (seed.generatedPassword) {
    return `Admin sign-in: ${seed.email} / ${seed.generatedPassword}  (shown once — keep it)`;
  }
  if (seed.passwordReset) return `Admin sign-in: ${seed.email} — password reset to SEED_ADMIN_PASSWORD`;
  if (seed.created) return `Admin sign-in: ${seed.email} with SEED_ADMIN_PASSWORD`;
  return `Admin sign-in: ${seed.email} (password as set at first start; set SEED_ADMIN_PASSWORD to reset it)`;
}

/**
 * A stop that takes longer than the drain plus this ends the process anyway (the DATA_DIR lock goes with it):
 * stopped replies store what they have and the connections close within it (ADR 0055).
 */
const STOP_MARGIN_MS = 5_000;

async function main() {
  const config = loadConfig();
  // Before anything runs, so every span has its provider (OTEL_* variables; docs/adr/0040-traces.md).
  const tracing = await startTracing({ version: VERSION });
  const server = await startServer(config, {
    onSeeded: (seed) => process.stdout.write(`\n${adminLine(seed)}\n`),
  });
  tracing?.logTo(server.app.log);
  process.stdout.write(`llmor is running at ${server.url}\n`);
  // Every link in a mail or an answer is built from this address, never from a request's headers (ADR 0023).
  process.stdout.write(
    config.PUBLIC_URL
      ? `Links in mails and answers use ${server.ctx.publicUrl} (PUBLIC_URL)\n\n`
      : `Links in mails and answers use ${server.ctx.publicUrl}; set PUBLIC_URL to the address people reach\n\n`,
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.app.log.info(`${signal} received, shutting down`);
    const deadlineMs = config.SHUTDOWN_DRAIN_MS + STOP_MARGIN_MS;
    setTimeout(() => {
      process.stderr.write(`llmor did not stop within ${deadlineMs / 1000} s of ${signal}, exiting\n`);
      process.exit(1);
    }, deadlineMs).unref();
    // The work is stopped by then; a part that fails to close (a connection already lost) is said in one line.
    await server
      .close()
      .catch((err: unknown) =>
        server.app.log.warn(`stopping: ${err instanceof Error ? err.message : String(err)}`),
      );
    await tracing?.close().catch((err: unknown) => server.app.log.warn({ err }, 'traces not exported'));
    server.app.log.info('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err: unknown) => {
  process.stderr.write(`${startupFailure(err)}\n`);
  process.exit(1);
});
