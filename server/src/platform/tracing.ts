import {
  type Attributes,
  type Context,
  DiagLogLevel,
  diag,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import { ConfigError } from './config';

/**
 * Traces through OpenTelemetry (docs/adr/0040-traces.md), for the whole process: the standard `OTEL_*`
 * variables turn them on and configure the SDK and its OTLP exporter, which are imported only then. Off,
 * every helper here runs its work as it is, and no SDK module is loaded (`@opentelemetry/api`, the facade,
 * is the AI SDK's own dependency and loaded anyway).
 *
 * Spans carry route patterns, numeric ids, statuses and token counts: never prompt or answer texts unless
 * `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true`, never tokens or keys.
 *
 * No context manager: the trace context is handed explicitly from one span boundary to the next (HTTP
 * request → reply → provider call, tool run, Lua run, datastore search), as a `TraceContext` argument.
 * OpenTelemetry's manager is an `AsyncLocalStorage`, which on Node 20 hooks every promise of the process
 * (docs/adr/0045-provider-call-on-the-models-stream.md).
 */

/** Where new spans go in their trace; undefined when tracing is off or the work is not traced (a root). */
export type TraceContext = Context | undefined;

interface Active {
  tracer: Tracer;
  /** Prompts and answers recorded on model-call spans (an operator's choice, off by default). */
  recordContent: boolean;
}

let active: Active | undefined;

export interface Tracing {
  /** Exports the spans ended so far (tests, before reading an in-memory exporter). */
  flush(): Promise<void>;
  /** Exports what is left and turns tracing off for the process. */
  close(): Promise<void>;
  /** Where the SDK's own warnings go (a collector that cannot be reached, a refused export). */
  logTo(log: FastifyBaseLogger): void;
}

type Env = Record<string, string | undefined>;

const PROTOCOLS = ['http/protobuf', 'http/json'] as const;

/** Whether the environment asks for traces: an OTLP endpoint or `OTEL_TRACES_EXPORTER=otlp`, not disabled. */
export function tracesWanted(env: Env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporter = env.OTEL_TRACES_EXPORTER?.trim().toLowerCase();
  if (exporter === 'none') return false;
  if (exporter && exporter !== 'otlp') {
    throw new ConfigError(
      `Invalid configuration:\n  OTEL_TRACES_EXPORTER: '${exporter}' is not supported (otlp or none)`,
    );
  }
  return exporter === 'otlp' || !!env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || !!env.OTEL_EXPORTER_OTLP_ENDPOINT;
}

function protocolOf(env: Env): (typeof PROTOCOLS)[number] {
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || PROTOCOLS[0])
    .trim()
    .toLowerCase();
  if (!(PROTOCOLS as readonly string[]).includes(protocol)) {
    throw new ConfigError(
      `Invalid configuration:\n  OTEL_EXPORTER_OTLP_PROTOCOL: '${protocol}' is not supported (${PROTOCOLS.join(' or ')})`,
    );
  }
  return protocol as (typeof PROTOCOLS)[number];
}

/** The traces URL the variables name, as the specification builds it; undefined: the exporter's default. */
function tracesUrl(env: Env): string | undefined {
  if (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (env.OTEL_EXPORTER_OTLP_ENDPOINT)
    return `${env.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`;
  return undefined;
}

async function otlpExporter(env: Env): Promise<SpanExporter> {
  // The URL from `env`; headers, timeout and compression the exporter reads from the process's variables.
  const config = { url: tracesUrl(env) };
  if (protocolOf(env) === 'http/json') {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    return new OTLPTraceExporter(config);
  }
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-proto');
  return new OTLPTraceExporter(config);
}

/**
 * Starts tracing for the process when the environment asks for it (null otherwise, nothing imported).
 * `exporter` replaces the OTLP exporter and turns tracing on whatever the environment says (tests).
 * The sampler (`OTEL_TRACES_SAMPLER`), batching (`OTEL_BSP_*`), limits and resource
 * (`OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES`) follow the standard variables.
 */
export async function startTracing(
  opts: { env?: Env; version?: string; exporter?: SpanExporter } = {},
): Promise<Tracing | null> {
  const env = opts.env ?? process.env;
  if (!opts.exporter && !tracesWanted(env)) return null;
  if (active) throw new Error('tracing is already started in this process');
  const [{ BasicTracerProvider, BatchSpanProcessor }, core, resources] = await Promise.all([
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/core'),
    import('@opentelemetry/resources'),
  ]);
  const exporter = opts.exporter ?? (await otlpExporter(env));
  const resource = resources
    .resourceFromAttributes({
      'service.name': 'llmor',
      ...(opts.version ? { 'service.version': opts.version } : {}),
    })
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  const provider = new BasicTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(exporter)] });
  trace.setGlobalTracerProvider(provider);
  propagation.setGlobalPropagator(new core.W3CTraceContextPropagator());
  active = {
    tracer: provider.getTracer('llmor', opts.version),
    recordContent: env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT?.trim().toLowerCase() === 'true',
  };
  return {
    flush: () => provider.forceFlush(),
    logTo: (log) => {
      const warn = (message: string, ...args: unknown[]) =>
        log.warn({ args: args.map(String) }, `traces: ${message}`);
      diag.setLogger(
        { error: warn, warn, info: () => {}, debug: () => {}, verbose: () => {} },
        DiagLogLevel.WARN,
      );
    },
    close: async () => {
      active = undefined;
      try {
        await provider.shutdown();
      } finally {
        trace.disable();
        propagation.disable();
        diag.disable();
      }
    },
  };
}

/** Whether this process traces. */
export const tracingOn = (): boolean => active !== undefined;

/**
 * Runs `fn` in a span, a child of `parent` (none: a trace of its own, as background work starts), handing
 * `fn` the span's context for the work it starts; a throw marks it failed. Off, it is `fn(undefined)` alone.
 */
export async function inSpan<T>(
  name: string,
  attributes: Attributes,
  parent: TraceContext,
  fn: (here: TraceContext) => Promise<T>,
  kind?: SpanKind,
): Promise<T> {
  if (!active) return fn(undefined);
  const span = active.tracer.startSpan(name, { kind, attributes }, parent ?? ROOT_CONTEXT);
  try {
    return await fn(trace.setSpan(parent ?? ROOT_CONTEXT, span));
  } catch (err) {
    markFailed(span, err instanceof Error ? err.message : String(err));
    if (err instanceof Error) span.recordException(err);
    throw err;
  } finally {
    span.end();
  }
}

function markFailed(span: Span, message: string): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

/** Adds attributes to the span of `here` and, given a message, marks it failed (work that ends without a throw). */
export function annotateSpan(here: TraceContext, attributes: Attributes, failure?: string): void {
  const span = here && trace.getSpan(here);
  if (!span) return;
  span.setAttributes(attributes);
  if (failure !== undefined) markFailed(span, failure);
}

/** What a provider call's span records when the call ends (GenAI semantic conventions). */
interface ModelCallOutcome {
  finishReason?: string;
  inputTokens?: number;
  outputTokens?: number;
  /** The answer, read only when the span records content (`ModelCallSpan.recordsContent`). */
  output?: () => unknown;
}

/** One provider call's span: ended once, by `end` or `fail` (whichever comes first). */
export interface ModelCallSpan {
  /** Whether prompts and answers go on the span (an operator's choice, off by default). */
  readonly recordsContent: boolean;
  end(outcome: ModelCallOutcome): void;
  fail(err: unknown): void;
}

/**
 * A client span for one provider call, `chat {model}` or `embeddings {model}` as the GenAI semantic
 * conventions name it, under `parent`; the prompt (`input`, read only then) when the operator enabled content.
 * Undefined when tracing is off: the caller does nothing more.
 */
export function startModelCallSpan(
  parent: TraceContext,
  call: {
    operation: 'chat' | 'embeddings';
    provider: string;
    model: string;
    temperature?: number;
    maxTokens?: number;
    input: () => unknown;
  },
): ModelCallSpan | undefined {
  if (!active) return undefined;
  const recordsContent = active.recordContent;
  const span = active.tracer.startSpan(
    `${call.operation} ${call.model}`,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'gen_ai.operation.name': call.operation,
        'gen_ai.provider.name': call.provider,
        'gen_ai.request.model': call.model,
        ...(call.temperature !== undefined ? { 'gen_ai.request.temperature': call.temperature } : {}),
        ...(call.maxTokens !== undefined ? { 'gen_ai.request.max_tokens': call.maxTokens } : {}),
        ...(recordsContent ? { 'gen_ai.input.messages': JSON.stringify(call.input()) } : {}),
      },
    },
    parent ?? ROOT_CONTEXT,
  );
  let open = true;
  return {
    recordsContent,
    end(outcome) {
      if (!open) return;
      open = false;
      span.setAttributes({
        ...(outcome.finishReason ? { 'gen_ai.response.finish_reasons': [outcome.finishReason] } : {}),
        ...(outcome.inputTokens !== undefined ? { 'gen_ai.usage.input_tokens': outcome.inputTokens } : {}),
        ...(outcome.outputTokens !== undefined ? { 'gen_ai.usage.output_tokens': outcome.outputTokens } : {}),
        ...(recordsContent && outcome.output
          ? { 'gen_ai.output.messages': JSON.stringify(outcome.output()) }
          : {}),
      });
      span.end();
    },
    fail(err) {
      if (!open) return;
      open = false;
      markFailed(span, err instanceof Error ? err.message : String(err));
      if (err instanceof Error) span.recordException(err);
      span.end();
    },
  };
}

/** The server span of each HTTP request being answered (tracing on). */
const requestSpans = new WeakMap<FastifyRequest, Span>();

/** The context of `request`'s span, for the work its handler starts (undefined: not traced). */
export function requestTrace(request: FastifyRequest): TraceContext {
  const span = requestSpans.get(request);
  return span && trace.setSpan(ROOT_CONTEXT, span);
}

/**
 * A server span per HTTP request (`POST /v1/vendors/:vendorId/apps`: the route pattern, never the URL),
 * continuing the caller's trace from its `traceparent`; a handler hands `requestTrace(request)` to the work
 * it starts (a reply), which becomes its child. `ignore` lists route patterns not traced (probes, scrapes).
 */
export function registerHttpTracing(app: FastifyInstance, ignore: readonly string[]): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const route = request.routeOptions.url;
    if (!active || (route !== undefined && ignore.includes(route))) return done();
    const method = request.method;
    const span = active.tracer.startSpan(
      route ? `${method} ${route}` : method,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': method,
          ...(route ? { 'http.route': route } : {}),
          'url.scheme': request.protocol,
        },
      },
      propagation.extract(ROOT_CONTEXT, request.headers),
    );
    requestSpans.set(request, span);
    done();
  });
  const end = (request: FastifyRequest, status: number | undefined) => {
    const span = requestSpans.get(request);
    if (!span) return;
    requestSpans.delete(request);
    if (status === undefined) markFailed(span, 'the client went away');
    else {
      span.setAttribute('http.response.status_code', status);
      if (status >= 500) markFailed(span, `HTTP ${status}`);
    }
    span.end();
  };
  app.addHook('onResponse', (request, reply, done) => {
    end(request, reply.statusCode);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    end(request, undefined);
    done();
  });
}
