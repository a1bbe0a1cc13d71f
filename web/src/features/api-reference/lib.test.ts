import { describe, expect, it } from 'vitest';
import type { OpenApiDocument } from './api/getOpenApi';
import { groupOperations } from './lib';

const doc: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: 'llmor API', version: '1' },
  paths: {
    '/v1/vendors/{vendorId}/apps': {
      post: { summary: 'Install an app', tags: ['apps'] },
      get: { summary: 'Installed apps', tags: ['apps'] },
    },
    '/v1/auth/session': { post: { summary: 'Open a session', tags: ['auth'] } },
  },
};

describe('API reference grouping', () => {
  it('groups by tag, orders by path and method, and filters by path or summary', () => {
    const all = groupOperations(doc, '');
    expect(all.map(([tag]) => tag)).toEqual(['apps', 'auth']);
    expect(all[0]![1].map((o) => o.method)).toEqual(['GET', 'POST']);
    expect(groupOperations(doc, 'install an').flatMap(([, ops]) => ops.map((o) => o.id))).toEqual([
      'post-/v1/vendors/{vendorId}/apps',
    ]);
    expect(groupOperations(doc, 'nothing like it')).toEqual([]);
  });
});
