import type { OpenApiDocument, OpenApiOperation } from './api/getOpenApi';

export interface ReferenceOperation {
  id: string;
  method: string;
  path: string;
  operation: OpenApiOperation;
}

const METHOD_ORDER = ['get', 'post', 'put', 'patch', 'delete'];

/** Operations grouped by their first tag (A-Z), each group by path then method; `search` filters path and summary. */
export function groupOperations(doc: OpenApiDocument, search: string): [string, ReferenceOperation[]][] {
  const needle = search.trim().toLowerCase();
  const groups = new Map<string, ReferenceOperation[]>();
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      if (!METHOD_ORDER.includes(method)) continue;
      const text = `${method} ${path} ${operation.summary ?? ''}`.toLowerCase();
      if (needle && !text.includes(needle)) continue;
      const tag = operation.tags?.[0] ?? 'other';
      const list = groups.get(tag) ?? [];
      list.push({ id: `${method}-${path}`, method: method.toUpperCase(), path, operation });
      groups.set(tag, list);
    }
  }
  for (const list of groups.values()) {
    list.sort(
      (a, b) =>
        a.path.localeCompare(b.path) ||
        METHOD_ORDER.indexOf(a.method.toLowerCase()) - METHOD_ORDER.indexOf(b.method.toLowerCase()),
    );
  }
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
}

/** The JSON schema of a request body or response, if it has one. */
export const jsonSchemaOf = (part: { content?: Record<string, { schema?: unknown }> } | undefined) =>
  part?.content?.['application/json']?.schema;
