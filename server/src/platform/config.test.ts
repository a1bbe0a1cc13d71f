import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('config', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 3000, HOST: '127.0.0.1', DATA_DIR: './data', LOG_LEVEL: 'info' });
    expect(config.ROLES).toEqual(['api', 'relay', 'worker']);
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('stops on malformed values, naming every bad variable', () => {
    const bad = {
      PORT: 'eighty',
      DATABASE_URL: 'mysql://x',
      LOG_LEVEL: 'loud',
      ROLES: 'api,cron',
      SEED_ADMIN_PASSWORD: 'short',
      ENCRYPTION_KEY: 'abc',
    };
    let error: unknown;
    try {
      loadConfig(bad);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    for (const name of Object.keys(bad)) expect((error as Error).message).toContain(`${name}:`);
    expect((error as Error).message).toContain("unknown role 'cron'");
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' }).PORT).toBe(3000);
  });
});
