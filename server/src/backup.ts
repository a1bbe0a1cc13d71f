/**
 * `npm run backup -- <file>` and `npm run restore -- <file>` (docs/adr/0057-backup-and-restore.md): the
 * configuration a start reads (DATA_DIR, DATABASE_URL, ENCRYPTION_KEY), one line of outcome, exit 0 or 1.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { prepareVectorStore } from './modules/datastores/vectors';
import { loadConfig } from './platform/config';
import { backupDatabase, restoreDatabase } from './platform/db/backup';
import { SERVER_ROOT } from './platform/paths';

const USAGE = 'usage: npm run backup -- <file>  |  npm run restore -- <file>';

const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

async function run(command: string | undefined, file: string | undefined): Promise<string> {
  if (!file || (command !== 'backup' && command !== 'restore')) throw new UsageError(USAGE);
  const config = loadConfig();
  const started = performance.now();
  if (command === 'backup') {
    const llmor = JSON.parse(readFileSync(join(SERVER_ROOT, 'package.json'), 'utf8')).version as string;
    const done = await backupDatabase({
      file,
      dataDir: config.DATA_DIR,
      databaseUrl: config.DATABASE_URL,
      encryptionKey: config.ENCRYPTION_KEY,
      llmor,
    });
    return `Backed up ${done.rows} rows of ${done.tables.length} tables (migration ${done.migration.tag}) and the encryption key to ${resolve(file)} (${megabytes(done.bytes)}, ${seconds(started)}). It holds the key: keep it as safe as DATA_DIR.`;
  }
  if (config.DATABASE_URL)
    throw new UsageError(
      'restore writes an embedded DATA_DIR: unset DATABASE_URL (on your own server use pg_restore and ENCRYPTION_KEY, see README "Backups")',
    );
  const done = await restoreDatabase({
    file,
    dataDir: config.DATA_DIR,
    prepareTables: prepareVectorStore,
  });
  const keyNote =
    config.ENCRYPTION_KEY && config.ENCRYPTION_KEY !== done.encryptionKey
      ? " ENCRYPTION_KEY is set here to another key than the backup's: unset it to use the restored key file, or no stored provider key can be decrypted."
      : '';
  return `Restored ${done.rows} rows of ${done.tables.length} tables (migration ${done.migration.tag}, llmor ${done.llmor}) and the encryption key into ${resolve(config.DATA_DIR)} (${seconds(started)}); start llmor on it (npm start).${keyNote}`;
}

class UsageError extends Error {}

const [command, file] = process.argv.slice(2);
run(command, file).then(
  (line) => {
    process.stdout.write(`${line}\n`);
    process.exit(0);
  },
  (err: unknown) => {
    process.stderr.write(`${command ?? 'backup'} failed: ${(err as Error).message}\n`);
    process.exit(err instanceof UsageError ? 2 : 1);
  },
);
