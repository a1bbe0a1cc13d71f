import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as contracts from '../index';

// Every schema the server declares on a route must become JSON Schema (the OpenAPI document is built so).
const schemas = Object.entries(contracts).filter(([, value]) => value instanceof z.ZodType) as [
  string,
  z.ZodType,
][];

describe('contract schemas', () => {
  it('are many: requests and responses alike', () => {
    expect(schemas.length).toBeGreaterThan(60);
    expect(schemas.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        'appResponseSchema',
        'appInstallBody',
        'errorBodySchema',
        'memberSchema',
        'vendorSettingsBody',
      ]),
    );
  });

  it('each converts to JSON Schema, as input and as output', () => {
    for (const [name, schema] of schemas) {
      for (const io of ['input', 'output'] as const) {
        expect(() => z.toJSONSchema(schema, { io, unrepresentable: 'any' }), `${name} (${io})`).not.toThrow();
      }
    }
  });

  it('response schemas drop what they do not name and keep what they do', () => {
    const vendor = {
      id: 1,
      key: 'acme',
      name: 'Acme',
      currency: 'EUR',
      created_at: '2026-01-01T00:00:00.000Z',
      role: 'owner',
      member: true,
    };
    expect(contracts.vendorSchema.parse({ ...vendor, secret: 'x' })).toEqual(vendor);
    expect(() => contracts.vendorSchema.parse({ ...vendor, role: 'admin' })).toThrow();
  });
});
