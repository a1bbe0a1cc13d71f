/**
 * Backups as one file, with nothing but llmor installed (docs/adr/0057-backup-and-restore.md): a logical
 * dump over an ordinary connection, in one `REPEATABLE READ READ ONLY` transaction (a consistent snapshot,
 * the running server need not cooperate), each table streamed with `COPY … TO STDOUT`.
 *
 * The file is gzip of lines: a header (format, llmor version, migration level, the encryption key), then
 * per table a `{"table", "columns"}` line, its rows in COPY's text format and a `\.` line, then the
 * sequences, and last the manifest (row counts per table, SHA-256 of every line before it). COPY's text
 * format escapes backslashes and line ends, so no row is ever `\.`.
 *
 * A restore reads the file twice: once to check it whole (nothing is touched when it is not), once to load
 * it into a cluster initialised as a first start does, migrated up to the backup's level, in one
 * transaction. Only the app's own schema is dumped: the job queue's (pg-boss) is made again at start, and
 * the work it held is found again there (the datastores' sweep) or is transient (ADR 0057).
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, open, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { encryptionKeyFile } from '../keys';
import { type EmbeddedServer, embeddedConnection, startEmbeddedPostgres } from './embedded';
import { type Database, migrationsFolder, openPostgres, poolConfig, withVector } from './index';
import { DataDirLockedError, lockDataDir } from './lock';
import { pgliteDataDir } from './pglite-import';

const FORMAT = 'llmor-backup';
const FORMAT_VERSION = 1;
/** The schema a backup holds: the app's tables (drizzle's own and pg-boss's live elsewhere). */
const SCHEMA = 'public';
/** Rows are handed to COPY in pieces of about this many characters. */
const COPY_PIECE = 1 << 16;
const END_OF_ROWS = '\\.';

/** The last migration a database has run: drizzle's journal entry (`when` is what drizzle records). */
interface MigrationLevel {
  tag: string;
  when: number;
}

interface Header {
  format: typeof FORMAT;
  version: number;
  llmor: string;
  created_at: string;
  migration: MigrationLevel;
  /** Base64 of the key that seals provider secrets (without it they cannot be decrypted). */
  encryption_key: string;
}

export interface BackupManifest {
  llmor: string;
  migration: MigrationLevel;
  tables: { name: string; rows: number }[];
  rows: number;
  sha256: string;
}

/** A backup file that is not whole, not ours, or not for this llmor: said in one line, nothing touched. */
class BackupFileError extends Error {
  override name = 'BackupFileError';
}

/** Something about DATA_DIR or the database that stops a backup or a restore before it begins. */
class BackupRefused extends Error {
  override name = 'BackupRefused';
}

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;
const qualified = (name: string) => `${SCHEMA}.${ident(name)}`;

/** drizzle's journal of this llmor's migrations (`meta/_journal.json`, each entry a migration). */
function journal(): { entries: MigrationLevel[] } {
  return JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8'));
}

async function migrationLevel(client: pg.ClientBase): Promise<MigrationLevel> {
  const { rows } = await client.query<{ when: string }>(
    'select created_at::text as when from drizzle.__drizzle_migrations order by created_at desc limit 1',
  );
  const when = Number(rows[0]?.when);
  if (!rows[0]) throw new BackupRefused('the database has no migrations recorded: not an llmor database');
  // A database a newer llmor migrated further: its tag is not in this llmor's journal.
  return { tag: journal().entries.find((m) => m.when === when)?.tag ?? 'unknown to this llmor', when };
}

async function tableNames(client: pg.ClientBase): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = $1 and c.relkind in ('r', 'p') and not c.relispartition order by c.relname`,
    [SCHEMA],
  );
  return rows.map((r) => r.name);
}

/** The columns a row is written with (generated ones are computed again on load), and their types. */
async function storedColumns(client: pg.ClientBase, table: string) {
  const { rows } = await client.query<{ name: string; type: string }>(
    `select a.attname as name, t.typname as type from pg_attribute a join pg_type t on t.oid = a.atttypid
     where a.attrelid = $1::regclass and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
     order by a.attnum`,
    [qualified(table)],
  );
  return rows;
}

/**
 * pgvector's columns (a server with the extension) are written as `real[]`, the type the embedded server,
 * which has no pgvector, stores them as (ADR 0033).
 */
const dumped = (column: { name: string; type: string }) =>
  column.type === 'vector' || column.type === 'halfvec'
    ? `${ident(column.name)}::real[]`
    : ident(column.name);

/** The lines of a backup, the rows straight from COPY; the file's checksum is taken as they pass. */
async function* backupLines(
  client: pg.ClientBase,
  opts: { llmor: string; encryptionKey: string },
  manifest: (m: BackupManifest) => void,
): AsyncGenerator<string | Buffer> {
  const hash = createHash('sha256');
  const hashed = (text: string) => {
    hash.update(text);
    return text;
  };
  const line = (value: unknown) => hashed(`${JSON.stringify(value)}\n`);
  await client.query('begin isolation level repeatable read read only');
  try {
    const migration = await migrationLevel(client);
    const header: Header = {
      format: FORMAT,
      version: FORMAT_VERSION,
      llmor: opts.llmor,
      created_at: new Date().toISOString(),
      migration,
      encryption_key: opts.encryptionKey,
    };
    yield line(header);
    const tables: BackupManifest['tables'] = [];
    for (const table of await tableNames(client)) {
      const columns = await storedColumns(client, table);
      yield line({ table, columns: columns.map((c) => c.name) });
      const rows = client.query(
        copyTo(`copy (select ${columns.map(dumped).join(', ')} from ${qualified(table)}) to stdout`),
      );
      for await (const chunk of rows) {
        hash.update(chunk as Buffer);
        yield chunk as Buffer;
      }
      yield hashed(`${END_OF_ROWS}\n`);
      tables.push({ name: table, rows: rows.rowCount });
    }
    // Sequences are not transactional: read after the rows, each is at least the value of any row's id.
    const { rows: sequences } = await client.query<{ name: string; value: string | null }>(
      'select sequencename as name, last_value::text as value from pg_sequences where schemaname = $1',
      [SCHEMA],
    );
    yield line({ sequences: Object.fromEntries(sequences.map((s) => [s.name, s.value])) });
    const summary: BackupManifest = {
      llmor: opts.llmor,
      migration,
      tables,
      rows: tables.reduce((sum, t) => sum + t.rows, 0),
      sha256: hash.digest('hex'),
    };
    manifest(summary);
    yield `${JSON.stringify({ manifest: summary })}\n`;
  } finally {
    await client.query('rollback').catch(() => {});
  }
}

/**
 * Writes the backup of the database `client` is connected to into `file` (mode 0600: it holds the key),
 * through `file.partial`, renamed once complete and on disk: a failed backup leaves no file that looks whole.
 */
export async function writeBackup(
  client: pg.ClientBase,
  file: string,
  opts: { llmor: string; encryptionKey: string },
): Promise<BackupManifest & { bytes: number }> {
  const partial = `${file}.partial`;
  let manifest: BackupManifest | undefined;
  try {
    await pipeline(
      backupLines(client, opts, (m) => {
        manifest = m;
      }),
      createGzip(),
      createWriteStream(partial, { mode: 0o600 }),
    );
    const written = await open(partial, 'r');
    try {
      await written.sync();
      const { size } = await written.stat();
      await rename(partial, file);
      return { ...(manifest as BackupManifest), bytes: size };
    } finally {
      await written.close();
    }
  } catch (err) {
    await rm(partial, { force: true });
    throw err;
  }
}

/** Where the rows of one table go while a backup is read (COPY into the new database on a restore). */
interface RowSink {
  row(line: string): Promise<void> | undefined;
  end(): Promise<number>;
  /** The file failed mid-table: the COPY is abandoned (its connection stays usable for the rollback). */
  abort(err: Error): void;
}

interface Visitor {
  table?(name: string, columns: string[]): Promise<RowSink>;
  sequences?(values: Record<string, string | null>): Promise<void>;
}

const corrupt = (file: string, why: string) =>
  new BackupFileError(`${file} is not a complete llmor backup: ${why}`);

function parseLine(file: string, line: string, lineNumber: number): Record<string, unknown> {
  try {
    const value = JSON.parse(line) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {}
  throw corrupt(file, `line ${lineNumber} is not what a backup holds there`);
}

function checkHeader(file: string, value: Record<string, unknown>): Header {
  if (value.format !== FORMAT) throw new BackupFileError(`${file} is not an llmor backup`);
  if (value.version !== FORMAT_VERSION)
    throw new BackupFileError(
      `${file} is an llmor backup of format ${String(value.version)}, this llmor reads format ${FORMAT_VERSION}`,
    );
  return value as unknown as Header;
}

/**
 * Reads a backup through, checking it whole: its structure, every table's row count and the checksum
 * against the manifest. `visit` receives the tables' rows and the sequences as they come.
 */
async function readBackup(
  file: string,
  visit: Visitor = {},
): Promise<{ header: Header; manifest: BackupManifest }> {
  const source = createReadStream(file);
  const input = createGunzip();
  source.on('error', (err) => input.destroy(err));
  const lines = createInterface({ input: source.pipe(input), crlfDelay: Number.POSITIVE_INFINITY });
  const hash = createHash('sha256');
  let header: Header | undefined;
  let manifest: BackupManifest | undefined;
  let table: { name: string; rows: number; sink?: RowSink } | undefined;
  const counted = new Map<string, number>();
  let lineNumber = 0;
  try {
    for await (const line of lines) {
      lineNumber++;
      if (manifest) throw corrupt(file, 'lines after its manifest');
      if (table) {
        hash.update(`${line}\n`);
        if (line !== END_OF_ROWS) {
          table.rows++;
          await table.sink?.row(line);
          continue;
        }
        const loaded = await table.sink?.end();
        if (loaded !== undefined && loaded !== table.rows)
          throw corrupt(file, `${table.name}: ${loaded} rows loaded of ${table.rows}`);
        counted.set(table.name, table.rows);
        table = undefined;
        continue;
      }
      const value = parseLine(file, line, lineNumber);
      if (!header) header = checkHeader(file, value);
      else if (typeof value.table === 'string' && Array.isArray(value.columns)) {
        const name = value.table;
        table = { name, rows: 0, sink: await visit.table?.(name, value.columns as string[]) };
      } else if (value.sequences && typeof value.sequences === 'object')
        await visit.sequences?.(value.sequences as Record<string, string | null>);
      else if (value.manifest && typeof value.manifest === 'object') {
        manifest = value.manifest as BackupManifest;
        continue;
      } else throw corrupt(file, `line ${lineNumber} is not what a backup holds there`);
      hash.update(`${line}\n`);
    }
  } catch (err) {
    table?.sink?.abort(err as Error);
    if (err instanceof BackupFileError) throw err;
    // zlib's own words: "unexpected end of file" (truncated), "incorrect header check", CRC mismatches.
    if ((err as NodeJS.ErrnoException).code?.startsWith('Z_'))
      throw corrupt(file, `${(err as Error).message} (truncated or damaged)`);
    throw err;
  } finally {
    lines.close();
    source.destroy();
  }
  if (!header) throw corrupt(file, 'it is empty');
  if (!manifest) throw corrupt(file, 'it ends before its manifest (truncated)');
  if (hash.digest('hex') !== manifest.sha256) throw corrupt(file, 'its checksum does not match its content');
  for (const { name, rows } of manifest.tables) {
    if (counted.get(name) !== rows)
      throw corrupt(file, `${name} holds ${counted.get(name) ?? 'no'} rows, its manifest says ${rows}`);
  }
  if (counted.size !== manifest.tables.length)
    throw corrupt(file, 'it holds tables its manifest does not list');
  return { header, manifest };
}

/** Rows into `copy … from stdin`, in pieces, waiting when the connection is behind. */
function copyInto(client: pg.ClientBase, table: string, columns: string[]): RowSink {
  const stream = client.query(
    copyFrom(`copy ${qualified(table)} (${columns.map(ident).join(', ')}) from stdin`),
  );
  let piece = '';
  // Every error the stream emits is heard (an abort after the server refused a row emits a second one).
  const failed = new Promise<never>((_, reject) =>
    stream.on('error', (err) => reject(new Error(`loading ${table}: ${err.message}`, { cause: err }))),
  );
  failed.catch(() => {}); // observed by whichever wait comes next
  const flush = async () => {
    const full = !stream.write(piece);
    piece = '';
    if (full) await Promise.race([once(stream, 'drain'), failed]);
  };
  return {
    row: (line) => {
      piece += `${line}\n`;
      return piece.length >= COPY_PIECE ? flush() : undefined;
    },
    end: async () => {
      if (piece) await flush();
      stream.end();
      await Promise.race([once(stream, 'finish'), failed]);
      return stream.rowCount;
    },
    // pg-copy-streams answers a destroy with CopyFail: the server ends the COPY with an error.
    abort: (err) => {
      if (!stream.destroyed) stream.destroy(err);
    },
  };
}

/**
 * A temporary copy of the migrations up to `level` (drizzle runs every migration of a folder's journal):
 * a restore brings the schema to the backup's level, and the next start migrates further as usual.
 */
async function migrationsUpTo(level: MigrationLevel): Promise<string> {
  const known = journal();
  const last = known.entries.findIndex((m) => m.when === level.when);
  if (last < 0)
    throw new BackupRefused(
      `the backup was made at migration ${level.tag} (${level.when}), which this llmor does not know: restore it with the llmor that made it, or a newer one`,
    );
  const folder = await mkdtemp(join(tmpdir(), 'llmor-restore-migrations-'));
  const entries = known.entries.slice(0, last + 1);
  await mkdir(join(folder, 'meta'));
  await writeFile(join(folder, 'meta', '_journal.json'), JSON.stringify({ ...known, entries }));
  for (const { tag } of entries)
    await copyFile(join(migrationsFolder, `${tag}.sql`), join(folder, `${tag}.sql`));
  return folder;
}

/** Loads a checked backup into a migrated, prepared database in one transaction. */
async function loadBackup(client: pg.ClientBase, file: string): Promise<BackupManifest> {
  await client.query('begin');
  try {
    // The rows come from one consistent snapshot, so their references hold: foreign keys are not checked
    // row by row, and tables load in the file's order (the server's own user is a superuser).
    await client.query('set local session_replication_role = replica');
    const tables = await tableNames(client);
    // Whatever the migrations seeded is replaced by the backup's rows.
    if (tables.length > 0) await client.query(`truncate ${tables.map(qualified).join(', ')}`);
    const { manifest } = await readBackup(file, {
      table: async (name, columns) => {
        if (!tables.includes(name))
          throw new BackupRefused(`the backup has a table ${name} this llmor does not make at its level`);
        return copyInto(client, name, columns);
      },
      sequences: async (values) => {
        for (const [name, value] of Object.entries(values)) {
          if (value === null) continue; // never used: stays at its start
          await client.query('select setval($1::regclass, $2::bigint, true)', [qualified(name), value]);
        }
      },
    });
    await client.query('commit');
    return manifest;
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  }
}

/** The encryption key a backup of `dataDir` carries: ENCRYPTION_KEY, or DATA_DIR's key file. */
function backupKey(dataDir: string, encryptionKey: string | undefined): string {
  if (encryptionKey) return encryptionKey;
  const path = encryptionKeyFile(dataDir);
  if (!existsSync(path))
    throw new BackupRefused(
      `no encryption key to back up: ${path} does not exist and ENCRYPTION_KEY is not set (without it no stored provider key can be decrypted)`,
    );
  return readFileSync(path, 'utf8').trim();
}

export interface BackupOptions {
  file: string;
  dataDir: string;
  /** Server mode: the same dump of the user's own server. */
  databaseUrl?: string;
  /** ENCRYPTION_KEY; without it DATA_DIR's key file. */
  encryptionKey: string | undefined;
  llmor: string;
}

/**
 * Backs up the database: the user's server in server mode; otherwise the embedded one, over its socket
 * while an llmor runs on DATA_DIR, or started here (DATA_DIR locked meanwhile, so no llmor starts on it).
 */
export async function backupDatabase(opts: BackupOptions): Promise<BackupManifest & { bytes: number }> {
  let connection: pg.ClientConfig;
  let server: EmbeddedServer | undefined;
  let release: (() => void) | undefined;
  if (opts.databaseUrl) connection = { connectionString: opts.databaseUrl };
  else {
    if (!existsSync(join(resolve(opts.dataDir), 'postgres', 'PG_VERSION'))) {
      const inProcess = existsSync(join(pgliteDataDir(opts.dataDir), 'PG_VERSION'))
        ? ': it holds an in-process (PGlite) database, which the next start where PostgreSQL can run imports (ADR 0036); back up after that start'
        : '';
      throw new BackupRefused(`no embedded database in DATA_DIR ${resolve(opts.dataDir)}${inProcess}`);
    }
    connection = embeddedConnection(opts.dataDir);
    try {
      release = lockDataDir(opts.dataDir);
    } catch (err) {
      // An llmor runs on DATA_DIR: its server answers on the socket.
      if (!(err instanceof DataDirLockedError)) throw err;
    }
  }
  try {
    const encryptionKey = backupKey(opts.dataDir, opts.encryptionKey);
    if (release) {
      // A server that dies under the dump fails its connection, and so the backup.
      server = await startEmbeddedPostgres(opts.dataDir, () => {});
      connection = server.connection;
    }
    const client = new pg.Client(connection);
    await client.connect();
    try {
      return await writeBackup(client, opts.file, { llmor: opts.llmor, encryptionKey });
    } finally {
      await client.end();
    }
  } finally {
    await server?.stop();
    release?.();
  }
}

export interface RestoreOptions {
  file: string;
  dataDir: string;
  /** Creates the tables made outside migrations, as a start does (the datastores' embeddings). */
  prepareTables(database: Database): Promise<void>;
}

/** What DATA_DIR holds (nothing, when it does not exist). */
const entriesOf = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);

/**
 * Restores a backup into an empty DATA_DIR: checks the file whole first, then initialises the embedded
 * cluster as a first start does, migrates it to the backup's level, loads the rows and sequences in one
 * transaction and writes the key file. On any failure DATA_DIR is left empty again.
 */
export async function restoreDatabase(
  opts: RestoreOptions,
): Promise<BackupManifest & { encryptionKey: string }> {
  const dataDir = resolve(opts.dataDir);
  const present = entriesOf(dataDir);
  if (present.length > 0)
    throw new BackupRefused(
      `DATA_DIR ${dataDir} is not empty (it holds ${present.slice(0, 3).join(', ')}${present.length > 3 ? ', …' : ''}): restore into an empty or new directory`,
    );
  if (!existsSync(opts.file)) throw new BackupFileError(`${opts.file} does not exist`);
  const { header } = await readBackup(opts.file);
  const migrations = await migrationsUpTo(header.migration);
  const existed = existsSync(dataDir);
  let release: (() => void) | undefined;
  let server: EmbeddedServer | undefined;
  try {
    release = lockDataDir(dataDir);
    // A server that dies under the restore fails its connection, and so the restore.
    server = await startEmbeddedPostgres(dataDir, () => {});
    const database = await withVector(
      await openPostgres(poolConfig(server.connection, { shared: false }), undefined, migrations),
    );
    try {
      await opts.prepareTables(database);
    } finally {
      await database.close();
    }
    const client = new pg.Client(server.connection);
    await client.connect();
    let manifest: BackupManifest;
    try {
      manifest = await loadBackup(client, opts.file);
    } finally {
      await client.end();
    }
    await writeFile(encryptionKeyFile(dataDir), header.encryption_key, { mode: 0o600, flag: 'wx' });
    return { ...manifest, encryptionKey: header.encryption_key };
  } catch (err) {
    await server?.stop().catch(() => {});
    server = undefined;
    release?.();
    release = undefined;
    for (const entry of entriesOf(dataDir)) rmSync(join(dataDir, entry), { recursive: true, force: true });
    if (!existed) rmSync(dataDir, { recursive: true, force: true });
    throw err;
  } finally {
    await server?.stop();
    release?.();
    await rm(migrations, { recursive: true, force: true });
  }
}
