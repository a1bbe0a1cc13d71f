import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { SERVER_ROOT } from '../paths';

/**
 * A fresh PGlite database made once per machine and loaded by every in-memory one (`DATA_DIR=memory://`:
 * tests and benches), so none pays for `initdb` (~2.5–5 s of WebAssembly Postgres; ADR 0015). The template
 * holds an empty cluster with pgvector and our settings, no schema: migrations still run on every open, so
 * it never goes stale with them. Made on first use.
 */

/**
 * PGlite serves one connection in this process: Postgres' default 128 MB of shared buffers mostly sit
 * resident for nothing (idle RSS 348 → 211 MB measured), while the OS caches the data files anyway.
 */
const SETTINGS = '\n# llmor: one in-process connection\nshared_buffers = 32MB\nmax_connections = 10\n';
const MARKER = '# llmor:';

const require = createRequire(import.meta.url);

/** A dependency's version, from the package.json above its entry point (neither package exports that file). */
function versionOf(pkg: string): string {
  for (let dir = dirname(require.resolve(pkg)); dirname(dir) !== dir; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const { name, version } = JSON.parse(readFileSync(manifest, 'utf8'));
      if (name === pkg) return version;
    }
  }
  throw new Error(`the version of ${pkg} was not found`);
}

/** Where the template lives: keyed by the PGlite and pgvector builds and by our settings. */
function templateRoot(): string {
  const key = `${versionOf('@electric-sql/pglite')}-${versionOf('@electric-sql/pglite-pgvector')}-${SETTINGS.length}`;
  return join(SERVER_ROOT, '.cache', `pglite-${key}`);
}

export interface PgliteTemplate {
  /** The cluster as a directory (the tarball's source). */
  dir: string;
  /** The same cluster as a tarball, for in-memory databases (`loadDataDir`). */
  tarball: string;
}

/** Makes the template if it is missing (parallel callers each build one; the first rename wins). */
export async function ensurePgliteTemplate(): Promise<PgliteTemplate> {
  const root = templateRoot();
  const template = { dir: join(root, 'pgdata'), tarball: join(root, 'pgdata.tar') };
  if (existsSync(join(root, 'ready'))) return template;

  const building = `${root}.building-${process.pid}-${Date.now()}`;
  const dir = join(building, 'pgdata');
  mkdirSync(building, { recursive: true });
  try {
    // Loaded only to build: the server's own PGlite runs on the database's thread (ADR 0019).
    const { PGlite } = await import('@electric-sql/pglite');
    const { vector } = await import('@electric-sql/pglite-pgvector');
    const initial = await PGlite.create(dir, { extensions: { vector } });
    await initial.exec('create extension if not exists vector');
    await initial.close();
    tunePgliteSettings(dir);
    // Reopened with the settings, so the tarball is the cluster exactly as a copy of the directory.
    const reopened = await PGlite.create(dir, { extensions: { vector } });
    const dump = await reopened.dumpDataDir('none');
    await reopened.close();
    writeFileSync(join(building, 'pgdata.tar'), Buffer.from(await dump.arrayBuffer()));
    writeFileSync(join(building, 'ready'), '');
    try {
      renameSync(building, root);
    } catch {
      // Another process finished first: theirs is as good.
    }
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
  return template;
}

/** Applies our settings to a data directory made before they existed (takes effect on this open). */
function tunePgliteSettings(pgDir: string): void {
  const conf = join(pgDir, 'postgresql.conf');
  if (existsSync(conf) && !readFileSync(conf, 'utf8').includes(MARKER)) appendFileSync(conf, SETTINGS);
}
