import {
  dataEnvelopeSchema,
  datastoreAppItemPath,
  datastoreAppPath,
  datastoreCreateBody,
  datastoreDocumentSchema,
  datastorePath,
  datastoreSchema,
  datastoreStatusSchema,
  datastoreUpdateBody,
  documentPath,
  documentsQuery,
  documentUpdateBody,
  FILE_IMPORT_MAX_BYTES,
  fileImportQuery,
  IMPORT_MAX_BYTES,
  importBody,
  listEnvelopeSchema,
  messageResponseSchema,
  searchBody,
  searchHitSchema,
} from '@llmor/contracts';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { route } from '../../platform/http/route';
import { requestTrace } from '../../platform/tracing';
import type { KnowledgeContext } from './service';
import * as service from './service';

const tags = ['datastores'];
const byPath = { auth: 'user', vendor: 'path', app: 'path' } as const;
const byHeader = { auth: 'user', vendor: 'header' } as const;

/**
 * Aborts when the caller's connection closes before the answer is sent, so a file still being read stops
 * and nothing of it is stored (ADR 0053).
 */
function callerGone(reply: FastifyReply): AbortSignal {
  const gone = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) gone.abort();
  });
  return gone.signal;
}

/** Datastores of an app, and their documents (docs/reference/api.md "Datastores"; contracts/src/http/datastores.ts). */
export const datastoreRoutes = (ctx: KnowledgeContext) => [
  route({
    method: 'GET',
    url: '/v1/vendors/:vendorId/apps/:appId/datastores',
    summary: "The app's datastores",
    tags,
    access: byPath,
    params: datastoreAppPath,
    resource: 'App',
    response: listEnvelopeSchema(datastoreSchema),
    handler: ({ vendor, app }) => service.listDatastores(ctx, vendor.id, app.id),
  }),
  route({
    method: 'POST',
    url: '/v1/vendors/:vendorId/apps/:appId/datastores',
    summary: 'Create a datastore (name unique per app, [a-z0-9_]+)',
    tags,
    access: byPath,
    params: datastoreAppPath,
    resource: 'App',
    body: datastoreCreateBody,
    status: 201,
    response: dataEnvelopeSchema(datastoreSchema),
    errors: ['Conflict'],
    handler: async ({ identity, vendor, app, body }) => ({
      data: await service.createDatastore(ctx, vendor.id, app.id, identity.user.id, body),
    }),
  }),
  route({
    method: 'PUT',
    url: '/v1/vendors/:vendorId/apps/:appId/datastores/:datastoreId',
    summary: 'Rename a datastore or change its embedding model (documents are embedded again)',
    tags,
    access: byPath,
    params: datastoreAppItemPath,
    resource: 'Datastore',
    body: datastoreUpdateBody,
    response: dataEnvelopeSchema(datastoreSchema),
    errors: ['Conflict'],
    handler: async ({ vendor, app, params, body }) => ({
      data: await service.updateDatastore(ctx, vendor.id, app.id, params.datastoreId, body),
    }),
  }),
  route({
    method: 'DELETE',
    url: '/v1/vendors/:vendorId/apps/:appId/datastores/:datastoreId',
    summary: 'Delete a datastore and its documents',
    tags,
    access: byPath,
    params: datastoreAppItemPath,
    resource: 'Datastore',
    handler: ({ vendor, app, params }) => service.deleteDatastore(ctx, vendor.id, app.id, params.datastoreId),
  }),
  route({
    method: 'GET',
    url: '/v1/datastores/:datastoreId/docs',
    summary: 'Documents of a datastore (paged; search in content and hash)',
    tags,
    access: byHeader,
    params: datastorePath,
    resource: 'Datastore',
    query: documentsQuery,
    response: listEnvelopeSchema(datastoreDocumentSchema),
    handler: ({ vendor, params, query }) => service.listDocuments(ctx, vendor.id, params.datastoreId, query),
  }),
  route({
    method: 'POST',
    url: '/v1/datastores/:datastoreId/docs/import',
    summary: 'Import documents (qa, text_blob, json, csv); embedded in the background',
    tags,
    access: byHeader,
    params: datastorePath,
    resource: 'Datastore',
    body: importBody,
    bodyLimit: IMPORT_MAX_BYTES,
    response: dataEnvelopeSchema(z.array(datastoreDocumentSchema)),
    handler: async ({ vendor, params, body, reply }) => ({
      data: await service.importDocuments(
        ctx,
        vendor.id,
        params.datastoreId,
        body.mode,
        body.data,
        undefined,
        callerGone(reply),
      ),
    }),
  }),
  route({
    method: 'POST',
    url: '/v1/datastores/:datastoreId/docs/upload',
    summary:
      'Import one file sent as it is (application/octet-stream): PDF, Word, HTML, Markdown or any import mode; passages keep their source',
    tags,
    access: byHeader,
    params: datastorePath,
    resource: 'Datastore',
    query: fileImportQuery,
    bodyLimit: FILE_IMPORT_MAX_BYTES,
    response: dataEnvelopeSchema(z.array(datastoreDocumentSchema)),
    handler: async ({ vendor, params, query, request, reply }) => ({
      data: await service.importFile(
        ctx,
        vendor.id,
        params.datastoreId,
        query.mode,
        { name: query.name, ...(query.url && { url: query.url }) },
        request.body,
        callerGone(reply),
      ),
    }),
  }),
  route({
    method: 'PUT',
    url: '/v1/datastores/:datastoreId/docs/:docId',
    summary: "Replace a document's content (it is embedded again)",
    tags,
    access: byHeader,
    params: documentPath,
    resource: 'Document',
    body: documentUpdateBody,
    response: dataEnvelopeSchema(datastoreDocumentSchema),
    errors: ['Conflict'],
    handler: async ({ vendor, params, body }) => ({
      data: await service.updateDocument(ctx, vendor.id, params.datastoreId, params.docId, body.document),
    }),
  }),
  route({
    method: 'DELETE',
    url: '/v1/datastores/:datastoreId/docs/:docId',
    summary: 'Delete a document',
    tags,
    access: byHeader,
    params: documentPath,
    resource: 'Document',
    handler: ({ vendor, params }) => service.deleteDocument(ctx, vendor.id, params.datastoreId, params.docId),
  }),
  route({
    method: 'POST',
    url: '/v1/datastores/:datastoreId/truncate',
    summary: 'Delete every document of a datastore',
    tags,
    access: byHeader,
    params: datastorePath,
    resource: 'Datastore',
    response: messageResponseSchema,
    handler: ({ vendor, params }) => service.truncateDatastore(ctx, vendor.id, params.datastoreId),
  }),
  route({
    method: 'GET',
    url: '/v1/datastores/:datastoreId/status',
    summary: 'Documents, waiting for embedding, failed, and the last embedding error',
    tags,
    access: byHeader,
    params: datastorePath,
    resource: 'Datastore',
    response: dataEnvelopeSchema(datastoreStatusSchema),
    handler: async ({ vendor, params }) => ({
      data: await service.datastoreStatus(ctx, vendor.id, params.datastoreId),
    }),
  }),
  route({
    method: 'POST',
    url: '/v1/datastores/:datastoreId/search',
    summary: 'Hybrid search: vector similarity fused with full-text rank',
    tags,
    access: byHeader,
    params: datastorePath,
    resource: 'Datastore',
    body: searchBody,
    response: dataEnvelopeSchema(z.array(searchHitSchema)),
    errors: ['BadGateway'],
    handler: async ({ vendor, params, body, request }) => ({
      data: await service.search(ctx, {
        vendorId: vendor.id,
        id: params.datastoreId,
        query: body.query,
        k: body.k,
        trace: requestTrace(request),
      }),
    }),
  }),
];
