/**
 * Backups (docs/adr/0057-backup-and-restore.md) below the command line: one snapshot for every table while
 * the database is written to, a restore that fails while loading leaves DATA_DIR empty, and server mode's
 * dump restores into an embedded DATA_DIR. Real embedded servers; server mode on DATABASE_URL's server.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { insertConversation, insertMessages } from '../modules/conversations/repo';
import { prepareVectorStore } from '../modules/datastores/vectors';
import type { AppContext } from '../platform/context';
import { backupDatabase, restoreDatabase, writeBackup } from '../platform/db/backup';
import { embeddedConnection } from '../platform/db/embedded';
import { type Database, openDatabase } from '../platform/db/index';
import { createTestServer, makeApp, makeVendor } from './harness';

const KEY = Buffer.alloc(32, 3).toString('base64');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
function newDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'llmor-backup-unit-'));
  dirs.push(dir);
  return dir;
}

const count = async (database: Database, table: string) =>
  (
    (await database.db.execute(sql.raw(`select count(*)::int as n from ${table}`))) as unknown as {
      rows: { n: number }[];
    }
  ).rows[0]!.n;

/** A vendor, an app and a conversation with `messages` messages. */
async function someRows(database: Database, messages: number) {
  const ctx = { db: database.db } as AppContext;
  const vendor = await makeVendor(ctx);
  const app = await makeApp(ctx, vendor);
  const conversation = await insertConversation(database.db, vendor.id, {
    appId: app.id,
    token: `backup-${vendor.id}`,
    channel: 'management',
    parameters: {},
    createdBy: null,
  });
  const message = (i: number) => ({ role: 'user' as const, creator: 'user', message: `message ${i}` });
  await insertMessages(
    database.db,
    vendor.id,
    conversation.id,
    Array.from({ length: messages }, (_, i) => message(i)),
  );
  return { vendor, conversation, message };
}

let backupFile = '';

/**
 * A whole, consistent backup (its manifest and checksum match) with every line of `file` before the
 * manifest passed through `edit`: what only loading it can refuse.
 */
function crafted(file: string, edit: (line: string) => string): string {
  const lines = gunzipSync(readFileSync(file)).toString().split('\n').slice(0, -1);
  const { manifest } = JSON.parse(lines.pop()!);
  const body = lines.map((l) => `${edit(l)}\n`).join('');
  manifest.sha256 = createHash('sha256').update(body).digest('hex');
  // The manifest lists the tables in the file's order, under the names the edited file gives them.
  const tables = body.split('\n').filter((l) => l.startsWith('{"table":'));
  manifest.tables.forEach((t: { name: string }, i: number) => {
    t.name = JSON.parse(tables[i]!).table;
  });
  const out = join(newDir(), 'crafted.llmor-backup');
  writeFileSync(out, gzipSync(`${body}${JSON.stringify({ manifest })}\n`));
  return out;
}

describe('backups of the embedded database', () => {
  it('reads every table in one snapshot: a message committed while the backup runs is not in it', async () => {
    const dataDir = newDir();
    const database = await openDatabase({ dataDir, prepareTables: prepareVectorStore });
    backupFile = join(newDir(), 'snapshot.llmor-backup');
    try {
      const { vendor, conversation, message } = await someRows(database, 3);
      const client = new pg.Client(embeddedConnection(dataDir));
      await client.connect();
      // The write is committed after the backup's snapshot is taken (its first statement) and before any
      // table is read: the list of tables is asked for only once it is in.
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      let written = false;
      (client as unknown as { query: unknown }).query = (...args: unknown[]) => {
        if (!written && typeof args[0] === 'string' && args[0].includes('from pg_class')) {
          written = true;
          return insertMessages(database.db, vendor.id, conversation.id, [message(99)]).then(() =>
            query(...args),
          );
        }
        return query(...args);
      };
      try {
        const done = await writeBackup(client, backupFile, { llmor: 'test', encryptionKey: KEY });
        expect(written).toBe(true);
        expect(await count(database, 'messages')).toBe(4);
        expect(done.tables.find((t) => t.name === 'messages')?.rows).toBe(3);
        expect(done.tables.find((t) => t.name === 'vendors')?.rows).toBe(await count(database, 'vendors'));
      } finally {
        await client.end();
      }
    } finally {
      await database.close();
    }
  });

  it('a restore that fails while loading (a table this llmor does not make, a row COPY refuses) leaves DATA_DIR empty', async () => {
    expect(backupFile).not.toBe('');
    const dataDir = newDir();
    const refused = [
      {
        edit: (l: string) => l.replace('{"table":"apps",', '{"table":"no_such_table",'),
        says: 'the backup has a table no_such_table this llmor does not make',
      },
      // A row with one field where messages have a dozen: refused by COPY, mid-table.
      {
        edit: (l: string) => (l.includes('\tmessage 1\t') ? 'just one field' : l),
        says: 'loading messages: invalid input syntax for type integer',
      },
    ];
    for (const { edit, says } of refused) {
      await expect(
        restoreDatabase({ file: crafted(backupFile, edit), dataDir, prepareTables: prepareVectorStore }),
      ).rejects.toThrow(says);
      expect(readdirSync(dataDir)).toEqual([]);
    }
    // The file they came from restores into that same directory.
    const restored = await restoreDatabase({ file: backupFile, dataDir, prepareTables: prepareVectorStore });
    expect(restored.encryptionKey).toBe(KEY);
    expect(readFileSync(join(dataDir, 'encryption.key'), 'utf8')).toBe(KEY);
  }, 120_000);
});

describe.runIf(Boolean(process.env.DATABASE_URL))('backups in server mode (DATABASE_URL)', () => {
  it("dumps the user's server into a file that restores into an embedded DATA_DIR: rows and sequences", async () => {
    const server = await createTestServer();
    const file = join(newDir(), 'server.llmor-backup');
    let source: { messages: number; vendors: number };
    try {
      await someRows(server.ctx.database, 1_200);
      source = {
        messages: await count(server.ctx.database, 'messages'),
        vendors: await count(server.ctx.database, 'vendors'),
      };
      const done = await backupDatabase({
        file,
        dataDir: newDir(),
        databaseUrl: server.ctx.config.DATABASE_URL,
        encryptionKey: KEY,
        llmor: 'test',
      });
      expect(done.tables.find((t) => t.name === 'messages')?.rows).toBe(source.messages);
    } finally {
      await server.close();
    }

    const dataDir = newDir();
    await restoreDatabase({ file, dataDir, prepareTables: prepareVectorStore });
    const restored = await openDatabase({ dataDir, prepareTables: prepareVectorStore });
    try {
      expect(await count(restored, 'messages')).toBe(source.messages);
      expect(await count(restored, 'vendors')).toBe(source.vendors);
      // The sequences came along: a new vendor takes an id after every restored one (not a taken one).
      const newest = await makeVendor({ db: restored.db } as AppContext);
      expect(await count(restored, `vendors where id >= ${newest.id}`)).toBe(1);
    } finally {
      await restored.close();
    }
  });
});
