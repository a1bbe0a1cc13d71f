import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataDirLockedError, isAlive, lockDataDir } from './lock';

describe('DATA_DIR lock', () => {
  it('refuses a directory held by another live process, naming the pid', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'llmor-lock-'));
    const other = spawn('sleep', ['30']);
    try {
      writeFileSync(join(dir, 'llmor.lock'), String(other.pid));
      expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
      expect(() => lockDataDir(dir)).toThrow(
        new RegExp(`in use by another llmor process \\(pid ${other.pid}\\)`),
      );
      expect(readFileSync(join(dir, 'llmor.lock'), 'utf8')).toBe(String(other.pid));
    } finally {
      other.kill();
    }
  });

  it('takes over a lock left by a process that no longer runs, and releases it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'llmor-lock-'));
    const gone = spawn('true');
    await new Promise((resolve) => gone.on('exit', resolve));
    writeFileSync(join(dir, 'llmor.lock'), String(gone.pid));
    const release = lockDataDir(dir);
    expect(readFileSync(join(dir, 'llmor.lock'), 'utf8')).toBe(String(process.pid));
    release();
    expect(existsSync(join(dir, 'llmor.lock'))).toBe(false);
  });

  it('takes over a lock whose holder was killed but not yet reaped (a zombie holds no files)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'llmor-lock-'));
    // The background `sleep 0.3` ends after its shell has become `sleep 5`, which never reaps it: a zombie.
    const parent = spawn('sh', ['-c', 'sleep 0.3 & echo $!; exec sleep 5']);
    const pid = Number(
      await new Promise<string>((resolve) => parent.stdout.once('data', (d) => resolve(String(d)))),
    );
    await expect.poll(() => readFileSync(`/proc/${pid}/stat`, 'utf8')).toMatch(/\)\s+Z\s/);
    try {
      expect(isAlive(pid)).toBe(false);
      writeFileSync(join(dir, 'llmor.lock'), String(pid));
      const release = lockDataDir(dir);
      expect(readFileSync(join(dir, 'llmor.lock'), 'utf8')).toBe(String(process.pid));
      release();
    } finally {
      parent.kill();
    }
  });

  it('counts a running process as alive', () => {
    expect(isAlive(process.pid)).toBe(true);
  });
});
