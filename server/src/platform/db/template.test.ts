import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '.';
import { ensurePgliteTemplate } from './template';

const setting = async (database: Database, name: 'shared_buffers' | 'max_connections') => {
  const result = (await database.db.execute(sql.raw(`show ${name}`))) as unknown as {
    rows: Record<string, string>[];
  };
  return result.rows[0]![name];
};

const tableCount = async (database: Database) => {
  const result = (await database.db.execute(
    sql`select count(*)::int as n from information_schema.tables where table_name = 'vendors'`,
  )) as unknown as { rows: { n: number }[] };
  return result.rows[0]!.n;
};

describe('embedded database template', () => {
  it('a new data directory starts as a copy of the template: our settings, pgvector, migrated', async () => {
    const template = await ensurePgliteTemplate();
    expect(readFileSync(join(template.dir, 'postgresql.conf'), 'utf8')).toContain('shared_buffers = 32MB');

    const dataDir = mkdtempSync(join(tmpdir(), 'llmor-template-'));
    const database = await openDatabase({ dataDir });
    try {
      expect(await setting(database, 'shared_buffers')).toBe('32MB');
      expect(database.hasVector).toBe(true);
      expect(await tableCount(database)).toBe(1);
    } finally {
      await database.close();
    }
    // The copy is the database's own: the template stays empty of our schema.
    expect(readFileSync(join(template.dir, 'postgresql.conf'), 'utf8')).toContain('# llmor:');
    const again = await openDatabase({ dataDir });
    try {
      expect(await tableCount(again)).toBe(1);
    } finally {
      await again.close();
    }
  });

  it('an in-memory database loads the template too', async () => {
    const database = await openDatabase({ dataDir: 'memory://' });
    try {
      expect(await setting(database, 'shared_buffers')).toBe('32MB');
      expect(await setting(database, 'max_connections')).toBe('10');
      expect(await tableCount(database)).toBe(1);
    } finally {
      await database.close();
    }
  });

  it('a data directory made before the settings gets them on its next open', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'llmor-template-'));
    const first = await openDatabase({ dataDir });
    await first.close();
    const conf = join(dataDir, 'pg', 'postgresql.conf');
    // As an older llmor left it: Postgres' defaults, no llmor block.
    writeFileSync(conf, readFileSync(conf, 'utf8').split('\n# llmor:')[0]!);
    const reopened = await openDatabase({ dataDir });
    expect(await setting(reopened, 'shared_buffers')).toBe('32MB');
    await reopened.close();
    expect(readFileSync(conf, 'utf8').match(/# llmor:/g)).toHaveLength(1);
  });
});
