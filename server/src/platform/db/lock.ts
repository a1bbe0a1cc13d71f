import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
}

/** Whether a process still runs: a killed one its parent has not reaped yet (a zombie) holds no files. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    // Linux: the state follows the parenthesised command name in /proc/<pid>/stat.
    return !/\)\s+Z\s/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

/**
 * Takes an exclusive lock on DATA_DIR (PGlite itself does not lock, and two processes on one
 * directory silently lose writes). A lock left by a dead process is taken over.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, 'llmor.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off('exit', release);
        rmSync(path, { force: true });
      };
      // A process that exits without closing the database (a stop past its deadline) lets go of it too.
      process.once('exit', release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number.parseInt(readFileSync(path, 'utf8'), 10);
      if (Number.isInteger(holder) && holder !== process.pid && isAlive(holder)) {
        throw new DataDirLockedError(
          `DATA_DIR ${dataDir} is in use by another llmor process (pid ${holder}). Stop it, or start this one with another DATA_DIR.`,
        );
      }
      rmSync(path, { force: true }); // stale lock from a process that no longer runs
    }
  }
  throw new DataDirLockedError(`Could not lock DATA_DIR ${dataDir}`);
}
