import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, redisNamespace } from './config';

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

  it("names a deployment's Redis keys after its database, or REDIS_PREFIX (docs/adr/0048)", () => {
    const onServer = (env: Record<string, string>) => redisNamespace(loadConfig(env));
    expect(onServer({ DATABASE_URL: 'postgres://app@db-a:5432/llmor_prod' })).toBe('llmor:llmor_prod:');
    // Another host name for the same database: the same namespace, so instances hear each other.
    expect(onServer({ DATABASE_URL: 'postgres://app@10.0.0.5/llmor_prod?sslmode=require' })).toBe(
      'llmor:llmor_prod:',
    );
    expect(onServer({ DATABASE_URL: 'postgres://app@db-a/llmor_staging' })).toBe('llmor:llmor_staging:');
    expect(onServer({})).toBe('llmor:');
    expect(onServer({ DATABASE_URL: 'postgres://app@db-a/llmor', REDIS_PREFIX: 'eu-1:' })).toBe('eu-1:');
    expect(() => loadConfig({ REDIS_PREFIX: 'spaces are not keys' })).toThrow(ConfigError);
  });
});
