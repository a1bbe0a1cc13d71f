import { describe, expect, it } from 'vitest';
import { CATALOGUE, catalogueEntry, secretKeys } from './catalogue';
import { checkParameters } from './parameters';

describe('catalogue', () => {
  it('has unique, URL-safe ids and at most 100 entries (the available-models limit)', () => {
    const ids = CATALOGUE.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9][a-z0-9._-]{0,99}$/);
    expect(ids.length).toBeLessThanOrEqual(100);
  });

  it('describes every parameter, requires only declared ones, and masks every secret as a password', () => {
    for (const e of CATALOGUE) {
      for (const r of e.schema.required) expect(Object.keys(e.schema.properties), e.id).toContain(r);
      for (const [k, p] of Object.entries(e.schema.properties)) {
        expect(p.title, `${e.id}.${k}`).toBeTruthy();
        expect(p.description, `${e.id}.${k}`).toBeTruthy();
      }
      for (const k of secretKeys(e))
        expect(e.schema.properties[k]!.description, `${e.id}.${k}`).toMatch(/password/);
    }
    expect(secretKeys(catalogueEntry('openai-gpt-4o-mini')!)).toEqual(['api_key']);
    expect(secretKeys(catalogueEntry('builtin-offline-demo')!)).toEqual([]);
  });

  it('every schema compiles (strict ajv) and the built-in pair needs no configuration', () => {
    for (const e of CATALOGUE) expect(() => checkParameters(e, {}), e.id).not.toThrow();
    for (const id of ['builtin-offline-demo', 'builtin-lexical-embedding']) {
      expect(checkParameters(catalogueEntry(id)!, {})).toEqual({ ok: true, parameters: {}, secrets: {} });
    }
  });

  it('has the providers and types the product needs', () => {
    const pairs = new Set(CATALOGUE.map((e) => `${e.provider}/${e.type}`));
    expect([...pairs].sort()).toEqual([
      'amazon-bedrock/chat_completion',
      'amazon-bedrock/embedding',
      'anthropic/chat_completion',
      'azure/chat_completion',
      'azure/embedding',
      'builtin/chat_completion',
      'builtin/embedding',
      'deepseek/chat_completion',
      'google/chat_completion',
      'google/embedding',
      'groq/chat_completion',
      'mistral/chat_completion',
      'mistral/embedding',
      'ollama/chat_completion',
      'ollama/embedding',
      'openai-compatible/chat_completion',
      'openai-compatible/embedding',
      'openai/chat_completion',
      'openai/embedding',
    ]);
  });

  it('splits valid parameters into stored values and secrets', () => {
    expect(
      checkParameters(catalogueEntry('openai-compatible-chat')!, {
        base_url: 'http://localhost:11434/v1',
        model: 'llama3.1',
        api_key: 'k-123',
        cost_per_1k: 3,
      }),
    ).toEqual({
      ok: true,
      parameters: { base_url: 'http://localhost:11434/v1', model: 'llama3.1', cost_per_1k: 3 },
      secrets: { api_key: 'k-123' },
    });
  });
});

describe('catalogue images', () => {
  it('every image is an icon of the bundled set, so the console can show it', async () => {
    const { isKnownIcon } = await import('../icons/icon-set');
    for (const model of CATALOGUE) {
      expect(model.image, model.id).toMatch(/^icon:/);
      expect(isKnownIcon(model.image.slice('icon:'.length)), model.image).toBe(true);
    }
  });
});
