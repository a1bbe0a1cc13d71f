import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Config, isInMemoryDataDir } from './config';

/** The key file a DATA_DIR holds when ENCRYPTION_KEY is not set (a backup carries it along). */
export const encryptionKeyFile = (dataDir: string) => join(dataDir, 'encryption.key');

/**
 * The key that seals provider secrets: ENCRYPTION_KEY, or a key file made once in DATA_DIR.
 * Several server-mode instances must share ENCRYPTION_KEY. An in-memory data dir gets a key for this
 * process only: what it seals does not outlive the process either.
 */
export function loadEncryptionKey(config: Config): Buffer {
  if (config.ENCRYPTION_KEY) return Buffer.from(config.ENCRYPTION_KEY, 'base64');
  if (isInMemoryDataDir(config.DATA_DIR)) return randomBytes(32);
  const path = encryptionKeyFile(config.DATA_DIR);
  if (existsSync(path)) return Buffer.from(readFileSync(path, 'utf8').trim(), 'base64');
  mkdirSync(config.DATA_DIR, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(path, key.toString('base64'), { mode: 0o600, flag: 'wx' });
  return key;
}
