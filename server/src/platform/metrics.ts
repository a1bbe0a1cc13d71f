import { createHash, timingSafeEqual } from 'node:crypto';
import { ErrorName } from '@llmor/contracts';
import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/**
 * The process's Prometheus registry and its HTTP exposure (docs/adr/0035-metrics.md). Only the registry
 * lives here: each domain registers and records its own families on it. Every family is named
 * `llmor_*` and labelled with small fixed sets (route patterns, channels, outcomes, providers, job
 * names), never vendor ids, tokens or raw paths.
 */
export type Metrics = Registry;

export const METRICS_PATH = '/metrics';

/** Buckets for request and reply latencies, in seconds: 5 ms to 2 minutes. */
export const LATENCY_BUCKETS = [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

export function createMetrics(): Metrics {
  return new Registry();
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * `GET /metrics`: 404 unless `token` (METRICS_TOKEN) is set, then the text format to `Authorization:
 * Bearer <token>` only (compared in constant time), 401 to anything else. With the token set, every HTTP
 * request is counted by its route pattern and status, and Node's process metrics are collected.
 */
export function registerMetrics(app: FastifyInstance, registry: Metrics, token: string | undefined): void {
  if (token) recordHttp(app, registry);
  const expected = token ? digest(`Bearer ${token}`) : null;
  app.get(METRICS_PATH, { logLevel: 'warn' }, async (request, reply) => {
    if (!expected) {
      return reply
        .code(404)
        .send({ name: ErrorName.NotFound, message: `Route GET ${METRICS_PATH} not found` });
    }
    const given = digest(request.headers.authorization ?? '');
    if (!timingSafeEqual(given, expected)) {
      return reply.code(401).header('www-authenticate', 'Bearer').send({
        name: ErrorName.Unauthorized,
        message: 'Metrics need Authorization: Bearer <METRICS_TOKEN>.',
      });
    }
    reply.header('content-type', registry.contentType);
    return registry.metrics();
  });
}

function recordHttp(app: FastifyInstance, registry: Metrics): void {
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'llmor_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'llmor_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer being sent, by method and route pattern.',
    labelNames: ['method', 'route'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    // The pattern (`/v1/vendors/:vendorId/apps`), never the URL; unmatched requests share one label.
    const route = request.routeOptions.url ?? 'unmatched';
    if (route === METRICS_PATH) return;
    const method = request.method;
    requests.inc({ method, route, status: String(reply.statusCode) });
    duration.observe({ method, route }, reply.elapsedTime / 1000);
  });
}
