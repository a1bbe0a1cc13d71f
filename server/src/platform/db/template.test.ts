import { readFileSync } from 'node:fs';
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

describe('the PGlite template (in-memory databases)', () => {
  it('an in-memory database loads the template: our settings, pgvector, migrated', async () => {
    const template = await ensurePgliteTemplate();
    expect(readFileSync(join(template.dir, 'postgresql.conf'), 'utf8')).toContain('shared_buffers = 32MB');
    const database = await openDatabase({ dataDir: 'memory://' });
    try {
      expect(await setting(database, 'shared_buffers')).toBe('32MB');
      expect(await setting(database, 'max_connections')).toBe('10');
      expect(database.hasVector).toBe(true);
      expect(await tableCount(database)).toBe(1);
    } finally {
      await database.close();
    }
  });
});
