/**
 * An embedded database made before ADR 0036 (PGlite in `DATA_DIR/pg`) moves into the embedded PostgreSQL on
 * its first start: every table's rows in foreign-key order and every sequence's value, in one transaction,
 * the counts checked, then the old directory renamed aside (never deleted).
 */
import { renameSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { sql } from 'drizzle-orm';
import { type Database, openPglite } from '.';

/** Where PGlite kept its cluster. */
export const pgliteDataDir = (dataDir: string) => join(resolve(dataDir), 'pg');

/** Rows per statement: a page of embeddings is a few MB of JSON. */
const PAGE = 500;

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

type Rows<T> = { rows: T[] };
const rowsOf = <T>(result: unknown) => (result as Rows<T>).rows;

interface Column {
  name: string;
  type: string;
}

/** The public tables of the new database, each after the tables its foreign keys point to. */
async function tablesInForeignKeyOrder(target: Database): Promise<string[]> {
  const tables = rowsOf<{ name: string }>(
    await target.db.execute(sql`
      select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'r' order by c.relname`),
  ).map((t) => t.name);
  const references = rowsOf<{ child: string; parent: string }>(
    await target.db.execute(sql`
      select c.relname as child, p.relname as parent from pg_constraint k
      join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
      join pg_namespace n on n.oid = c.relnamespace
      where k.contype = 'f' and n.nspname = 'public' and k.conrelid <> k.confrelid`),
  );
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.length) {
    const next = tables.filter(
      (t) => !placed.has(t) && references.every((r) => r.child !== t || placed.has(r.parent)),
    );
    if (next.length === 0) throw new Error('the tables’ foreign keys form a cycle');
    for (const t of next) {
      ordered.push(t);
      placed.add(t);
    }
  }
  return ordered;
}

/** The columns a row is written with (generated ones are computed again), as the new database types them. */
async function insertableColumns(target: Database, table: string): Promise<Column[]> {
  return rowsOf<Column>(
    await target.db.execute(sql`
      select a.attname as name, format_type(a.atttypid, a.atttypmod) as type from pg_attribute a
      where a.attrelid = ${`public.${ident(table)}`}::regclass and a.attnum > 0 and not a.attisdropped
        and a.attgenerated = '' order by a.attnum`),
  );
}

const countRows = (table: string) => sql.raw(`select count(*) as n from public.${ident(table)}`);
const countOf = (result: unknown) => Number(rowsOf<{ n: string | number }>(result)[0]?.n ?? 0);

export interface PgliteImport {
  tables: number;
  rows: number;
  /** Where the PGlite directory now is. */
  keptAt: string;
}

/**
 * Copies the PGlite database in `DATA_DIR/pg` into `target` (freshly migrated; `prepareTables` makes the
 * tables created outside migrations) and renames the PGlite directory aside. Fails, with nothing committed
 * and the PGlite directory where it was, if any count differs.
 */
export async function importPgliteData(
  dataDir: string,
  target: Database,
  prepareTables: ((database: Database) => Promise<void>) | undefined,
  say: (line: string) => void,
): Promise<PgliteImport> {
  const from = pgliteDataDir(dataDir);
  say(`Importing the embedded PGlite database in ${from} into the embedded PostgreSQL…`);
  const source = await openPglite(from);
  let imported: Omit<PgliteImport, 'keptAt'>;
  try {
    if (prepareTables) {
      await prepareTables(source);
      await prepareTables(target);
    }
    const tables = await tablesInForeignKeyOrder(target);
    const sourceTables = new Set(
      rowsOf<{ name: string }>(
        await source.db.execute(sql`select tablename as name from pg_tables where schemaname = 'public'`),
      ).map((t) => t.name),
    );
    const missing = [...sourceTables].filter((t) => !tables.includes(t));
    if (missing.length > 0) throw new Error(`no table for ${missing.join(', ')} in the new database`);
    const sequences = rowsOf<{ name: string; value: string | null }>(
      await source.db.execute(
        sql`select sequencename as name, last_value::text as value from pg_sequences where schemaname = 'public'`,
      ),
    );

    let rows = 0;
    await target.db.transaction(async (tx) => {
      // Whatever the migrations seeded is replaced by the old database's rows.
      await tx.execute(sql.raw(`truncate ${tables.map((t) => `public.${ident(t)}`).join(', ')}`));
      for (const table of tables) {
        if (!sourceTables.has(table)) continue;
        const columns = await insertableColumns(target, table);
        const list = columns.map((c) => ident(c.name)).join(', ');
        // Read as the new database types each column (pgvector's `vector` becomes `real[]` there).
        const select = columns.map((c) => `${ident(c.name)}::${c.type} as ${ident(c.name)}`).join(', ');
        // Pages follow the physical row order (a table nothing else writes to meanwhile), each after the last.
        for (let after = '(0,0)'; ; ) {
          const [page] = rowsOf<{ rows: string | null; last: string | null }>(
            await source.executeSql(
              `select json_agg(x)::text as rows, max(x.__ctid)::text as last from (select ${select}, ctid as __ctid from public.${ident(table)} where ctid > $1::tid order by ctid limit ${PAGE}) x`,
              [after],
            ),
          );
          if (!page?.rows || !page.last) break;
          after = page.last;
          const json = page.rows;
          const inserted = await tx.execute(
            sql`insert into ${sql.raw(`public.${ident(table)}`)} (${sql.raw(list)})
              select ${sql.raw(list)} from json_populate_recordset(null::${sql.raw(`public.${ident(table)}`)}, ${json}::json)`,
          );
          rows += (inserted as unknown as { rowCount: number }).rowCount;
        }
        const expected = countOf(await source.db.execute(countRows(table)));
        const copied = countOf(await tx.execute(countRows(table)));
        if (expected !== copied) throw new Error(`${table}: ${copied} rows copied of ${expected}`);
      }
      for (const sequence of sequences) {
        if (sequence.value === null) continue; // never used: stays at its start
        await tx.execute(
          sql`select setval(${`public.${ident(sequence.name)}`}::regclass, ${sequence.value}::bigint, true)`,
        );
      }
    });
    imported = { tables: sourceTables.size, rows };
  } finally {
    await source.close();
  }
  const keptAt = join(resolve(dataDir), `pg.imported-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  renameSync(from, keptAt);
  say(
    `Imported ${imported.rows} rows of ${imported.tables} tables from PGlite; its directory is kept at ${keptAt} (remove it once you no longer need it).`,
  );
  return { ...imported, keptAt };
}
