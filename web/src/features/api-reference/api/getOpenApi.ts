import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { apiReferenceKeys } from './keys';

/** The parts of an OpenAPI 3.1 document the reference shows. */
export interface OpenApiOperation {
  summary?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: { name: string; in: string; required?: boolean; schema?: unknown }[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
}
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, OpenApiOperation>>;
}

/** GET /v1/openapi.json (public, generated from the server's route declarations). */
function getOpenApi(): Promise<OpenApiDocument> {
  return apiRequest<OpenApiDocument>('/v1/openapi.json', {
    signed: false,
    withLocale: false,
  });
}

const openApiQueryOptions = () =>
  queryOptions({ queryKey: apiReferenceKeys.openApi, queryFn: getOpenApi, staleTime: 60_000 });

export function useOpenApi() {
  return useQuery(openApiQueryOptions());
}
