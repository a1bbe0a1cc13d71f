/**
 * The embedded PostgreSQL kept running (docs/adr/0054-dependable-when-the-database-fails.md): when it dies
 * under llmor, one line says so and llmor starts it again on the same data directory and socket (the pool
 * reconnects by itself; meanwhile requests answer 503). Restarts back off; a server that cannot be kept up
 * ends llmor with exit 70 for a supervisor, saying why in one line.
 */
import { type EmbeddedServer, startEmbeddedPostgres } from './embedded';

/** Failed starts (and deaths soon after a start) in a row before llmor gives up. */
const RESTART_ATTEMPTS = 10;
/** The first restart is at once, then after 1, 2, 4 … s, at most this long apart. */
const BACKOFF_MAX_MS = 30_000;
/** A server that ran this long before it died starts the count of failures afresh. */
const STABLE_MS = 60_000;

export interface SupervisedServer {
  connection: EmbeddedServer['connection'];
  started: EmbeddedServer['started'];
  /** Stops the server (and any restart under way) and waits for it to exit. */
  stop(): Promise<void>;
}

/** Starts the embedded server and restarts it whenever it dies; `say` writes the operator's lines. */
export async function superviseEmbeddedPostgres(
  dataDir: string,
  say: (line: string) => void,
): Promise<SupervisedServer> {
  let stopping = false;
  let failures = 0;
  let startedAt = Date.now();
  let restarting: Promise<void> | undefined;
  let wake: (() => void) | undefined;

  const onCrash = (reason: Error) => {
    if (stopping) return;
    if (Date.now() - startedAt >= STABLE_MS) failures = 0;
    else failures++;
    say(`${reason.message}; llmor restarts it`);
    restarting = restart().finally(() => {
      restarting = undefined;
    });
  };

  const restart = async () => {
    const began = Date.now();
    while (!stopping) {
      if (failures >= RESTART_ATTEMPTS) {
        say(
          `the embedded PostgreSQL could not be kept running (${failures} failures in a row); llmor stops for a supervisor to start it again`,
        );
        process.exit(70);
      }
      if (failures > 0) {
        const delay = Math.min(1000 * 2 ** (failures - 1), BACKOFF_MAX_MS);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, delay);
        });
        if (stopping) return;
      }
      try {
        const next = await startEmbeddedPostgres(dataDir, onCrash);
        server = next;
        startedAt = Date.now();
        if (stopping) return;
        say(`Embedded PostgreSQL: restarted in ${((Date.now() - began) / 1000).toFixed(1)} s`);
        return;
      } catch (err) {
        failures++;
        say(`Embedded PostgreSQL: restart failed (${(err as Error).message.split('\n')[0]})`);
      }
    }
  };

  let server = await startEmbeddedPostgres(dataDir, onCrash);
  startedAt = Date.now();
  return {
    connection: server.connection,
    started: server.started,
    stop: async () => {
      stopping = true;
      wake?.();
      await restarting;
      await server.stop();
    },
  };
}
