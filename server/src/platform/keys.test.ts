import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { loadEncryptionKey } from './keys';

describe('encryption key', () => {
  let dir = '';
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('is made once in DATA_DIR and read back on the next start', () => {
    dir = mkdtempSync(join(tmpdir(), 'llmor-keys-'));
    const first = loadEncryptionKey(loadConfig({ DATA_DIR: dir }));
    expect(first).toHaveLength(32);
    expect(readFileSync(join(dir, 'encryption.key'), 'utf8')).toBe(first.toString('base64'));
    expect(loadEncryptionKey(loadConfig({ DATA_DIR: dir })).equals(first)).toBe(true);
  });

  it('writes nothing for an in-memory data dir (no memory:/ directory in the working tree)', () => {
    const key = loadEncryptionKey(loadConfig({ DATA_DIR: 'memory://' }));
    expect(key).toHaveLength(32);
    expect(existsSync('memory:')).toBe(false);
    expect(existsSync(join('memory:', 'encryption.key'))).toBe(false);
  });

  it('prefers ENCRYPTION_KEY', () => {
    const configured = Buffer.alloc(32, 7);
    const key = loadEncryptionKey(
      loadConfig({ DATA_DIR: 'memory://', ENCRYPTION_KEY: configured.toString('base64') }),
    );
    expect(key.equals(configured)).toBe(true);
  });
});
