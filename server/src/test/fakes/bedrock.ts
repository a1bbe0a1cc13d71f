/**
 * Fake Amazon Bedrock runtime on 127.0.0.1:<random port>, real wire protocol (the Bedrock API reference):
 * - `POST /model/{modelId}/converse-stream` → `application/vnd.amazon.eventstream`: binary frames (prelude
 *   with total and header lengths + CRC32, headers `:event-type` / `:content-type` / `:message-type`,
 *   JSON payload, message CRC32) carrying `messageStart`, per block `contentBlockStart` (tool use: id and
 *   name) / `contentBlockDelta` (`text` or `toolUse.input` fragments) / `contentBlockStop`, `messageStop`
 *   (`stopReason`) and `metadata` (`usage.inputTokens/outputTokens`). A mid-stream error is an
 *   `exception` frame (`:exception-type: throttlingException`).
 * - `POST /model/amazon.titan-embed-text-v2%3A0/invoke` `{inputText}` → `{embedding, inputTextTokenCount}`.
 * - The control plane's lists, on the same server: `GET /foundation-models` → `{modelSummaries: [{modelArn,
 *   modelId, outputModalities, responseStreamingSupported, inferenceTypesSupported, …}]}` and
 *   `GET /inference-profiles` → `{inferenceProfileSummaries: [{inferenceProfileId, models: [{modelArn}],
 *   status, type, …}]}`.
 * Every request must carry a SigV4 `Authorization` header: `AWS4-HMAC-SHA256 Credential=<key id>/<date>/
 * <region>/bedrock/aws4_request, SignedHeaders=…, Signature=…`. The fake checks the algorithm, the scope
 * (its region, service `bedrock`), that host and x-amz-date are signed, and recomputes the signature from
 * the secret key (canonical request → string to sign → HMAC chain); a wrong key id answers 403
 * UnrecognizedClientException, a wrong signature 403 InvalidSignatureException, as AWS does. A malformed
 * header or an unexpected route is a failure.
 *
 * ```ts
 * const bedrock = await startFakeBedrock({ region: 'eu-central-1', accessKeyId: 'AKIA…', secretAccessKey: 's' });
 * bedrock.converse('anthropic.claude…', { kind: 'reply', text: ['Hi'], usage: { input: 9, output: 1 } });
 * bedrock.converse(model, { kind: 'error', status: 429, type: 'ThrottlingException' });
 * bedrock.embed({ kind: 'embeddings', dimensions: 1024 });
 * bedrock.signatures[0].credential.region;   // what the last request was signed for
 * ```
 */
import { createHash, createHmac } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { FakeHttpServer, FakeOverHttp, type RecordedRequest, sendJson, tick } from './http';
import { type FakeToolCall, fakeVector, fragments } from './openai';

export interface FakeBedrockOptions {
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** When set, requests must carry it as `x-amz-security-token` (signed). */
  sessionToken?: string;
}

export type FakeConverseScript =
  | {
      kind: 'reply';
      text?: string[];
      toolCalls?: FakeToolCall[];
      /** Default `{input: 10, output: 20}`. */
      usage?: { input: number; output: number };
      /** Default `tool_use` with tool calls, else `end_turn`. */
      stopReason?: string;
    }
  /** An HTTP error in the AWS JSON protocol: `x-amzn-ErrorType` header and `{"message"}`. */
  | { kind: 'error'; status: number; type: string; message?: string }
  /** Starts the stream, then sends an exception frame. */
  | { kind: 'exception'; type: string; message: string; text?: string[] }
  | { kind: 'hang' };

export type FakeTitanScript =
  | { kind: 'embeddings'; dimensions?: number; usage?: number }
  | { kind: 'error'; status: number; type: string; message?: string };

export const TITAN_V2 = 'amazon.titan-embed-text-v2:0';

const DEFAULT_MESSAGES: Record<string, string> = {
  AccessDeniedException: "You don't have access to the model with the specified model ID.",
  ThrottlingException: 'Too many requests, please wait before trying again.',
  ValidationException: 'The provided model identifier is invalid.',
  ServiceUnavailableException: 'Bedrock is unable to process your request.',
  InternalServerException: 'The server encountered an internal error.',
};

export interface ParsedSignature {
  algorithm: string;
  credential: { accessKeyId: string; date: string; region: string; service: string; terminator: string };
  signedHeaders: string[];
  signature: string;
}

/** Parses `AWS4-HMAC-SHA256 Credential=…, SignedHeaders=…, Signature=…`; null when it is not that shape. */
function parseSigV4(header: string | undefined): ParsedSignature | null {
  const m = /^(\S+) Credential=([^,]+), ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(
    header ?? '',
  );
  if (!m) return null;
  const [accessKeyId, date, region, service, terminator] = m[2]!.split('/');
  if (!accessKeyId || !date || !region || !service || !terminator) return null;
  return {
    algorithm: m[1]!,
    credential: { accessKeyId, date, region, service, terminator },
    signedHeaders: m[3]!.split(';'),
    signature: m[4]!,
  };
}

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
const hmac = (key: Buffer | string, s: string) => createHmac('sha256', key).update(s, 'utf8').digest();
/** RFC 3986 encoding, as SigV4 wants it (encodeURIComponent leaves !'()* alone). */
const rfc3986 = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The signature AWS would compute for this request (SigV4, non-S3: path segments encoded once more). */
function expectedSignature(req: RecordedRequest, sig: ParsedSignature, secretAccessKey: string): string {
  const canonicalUri = req.path
    .split('/')
    .map((seg) => rfc3986(seg))
    .join('/');
  const canonicalQuery = Object.entries(req.query)
    .map(([k, v]) => [rfc3986(k), rfc3986(v)])
    .sort(([a], [b]) => (a! < b! ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const header = (name: string) => {
    const v = req.headers[name];
    return (Array.isArray(v) ? v.join(',') : (v ?? '')).trim().replace(/\s+/g, ' ');
  };
  const canonicalHeaders = sig.signedHeaders.map((h) => `${h}:${header(h)}\n`).join('');
  const canonicalRequest = [
    req.method,
    canonicalUri,
    canonicalQuery,
    canonicalHeaders,
    sig.signedHeaders.join(';'),
    sha256(req.rawBody),
  ].join('\n');
  const { date, region, service, terminator } = sig.credential;
  const scope = `${date}/${region}/${service}/${terminator}`;
  const stringToSign = [sig.algorithm, header('x-amz-date'), scope, sha256(canonicalRequest)].join('\n');
  const key = [date, region, service, terminator].reduce<Buffer | string>(
    (k, part) => hmac(k, part),
    `AWS4${secretAccessKey}`,
  );
  return createHmac('sha256', key).update(stringToSign, 'utf8').digest('hex');
}

const codec = new EventStreamCodec(toUtf8, fromUtf8);

/** One event-stream frame: a JSON payload (with the `p` padding Bedrock adds) and its headers. */
function frame(headers: Record<string, string>, payload: Record<string, unknown>): Uint8Array {
  return codec.encode({
    headers: Object.fromEntries(
      Object.entries(headers).map(([k, value]) => [k, { type: 'string' as const, value }]),
    ),
    body: fromUtf8(JSON.stringify({ ...payload, p: 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJ' })),
  });
}

const event = (type: string, payload: Record<string, unknown>) =>
  frame({ ':event-type': type, ':content-type': 'application/json', ':message-type': 'event' }, payload);

export class FakeBedrock extends FakeOverHttp {
  readonly http: FakeHttpServer;
  /** The parsed signature of every request, in order. */
  readonly signatures: ParsedSignature[] = [];

  constructor(
    private readonly opts: FakeBedrockOptions,
    models: string[],
  ) {
    super();
    const routes = models.flatMap((m) => [converseRoute(m), `POST /model/${encodeURIComponent(m)}/invoke`]);
    this.http = new FakeHttpServer([...routes, FOUNDATION_MODELS, INFERENCE_PROFILES]);
  }

  /** The endpoint URL to install with. */
  get baseUrl(): string {
    return this.http.url;
  }

  converse(model: string, script: FakeConverseScript): this {
    this.http.enqueue(converseRoute(model), (req, res) => {
      if (this.refused(req, res)) return;
      return this.answerConverse(res, script);
    });
    return this;
  }

  embed(script: FakeTitanScript): this {
    this.http.enqueue(`POST /model/${encodeURIComponent(TITAN_V2)}/invoke`, (req, res) => {
      if (this.refused(req, res)) return;
      if (script.kind === 'error') return awsError(res, script.status, script.type, script.message);
      const text = String((req.body as { inputText?: unknown })?.inputText ?? '');
      sendJson(res, 200, {
        embedding: fakeVector(text, script.dimensions ?? 1024),
        embeddingsByType: { float: fakeVector(text, script.dimensions ?? 1024) },
        inputTextTokenCount: script.usage ?? text.split(/\s+/).filter(Boolean).length,
      });
    });
    return this;
  }

  /**
   * Answers the next `GET /foundation-models` (ListFoundationModels) with these models, after its filters
   * (`byOutputModality`, `byInferenceType`, `byProvider`) as AWS applies them; another query is a failure.
   */
  foundationModels(models: FakeFoundationModel[]): this {
    this.http.enqueue(FOUNDATION_MODELS, (req, res) => {
      if (this.refused(req, res) || this.unexpectedQuery(req, res, FOUNDATION_MODEL_FILTERS)) return;
      const { byOutputModality, byInferenceType, byProvider } = req.query;
      const summaries = models
        .map((m) => foundationModelSummary(this.opts.region, m))
        .filter(
          (m) =>
            (!byOutputModality || m.outputModalities.includes(byOutputModality)) &&
            (!byInferenceType || m.inferenceTypesSupported.includes(byInferenceType)) &&
            (!byProvider || m.providerName.toLowerCase() === byProvider.toLowerCase()),
        );
      sendJson(res, 200, { modelSummaries: summaries });
    });
    return this;
  }

  /** Answers the next `GET /inference-profiles` (ListInferenceProfiles): system-defined profiles over these models. */
  inferenceProfiles(profiles: FakeInferenceProfile[]): this {
    this.http.enqueue(INFERENCE_PROFILES, (req, res) => {
      if (this.refused(req, res) || this.unexpectedQuery(req, res, ['maxResults', 'nextToken', 'type']))
        return;
      const max = Number(req.query.maxResults ?? 1000);
      if (!Number.isInteger(max) || max < 1 || max > 1000) {
        this.http.failures.push(`${req.path}: maxResults ${req.query.maxResults}`);
        return awsError(res, 400, 'ValidationException', 'maxResults must be between 1 and 1000.');
      }
      sendJson(res, 200, {
        inferenceProfileSummaries: profiles.slice(0, max).map((p) => ({
          inferenceProfileName: p.id,
          description: `Routes requests to ${p.models.join(', ')}.`,
          createdAt: '2025-09-29T00:00:00Z',
          updatedAt: '2025-09-29T00:00:00Z',
          inferenceProfileArn: `arn:aws:bedrock:${this.opts.region}:123456789012:inference-profile/${p.id}`,
          models: p.models.map((m) => ({
            modelArn: `arn:aws:bedrock:${this.opts.region}::foundation-model/${m}`,
          })),
          inferenceProfileId: p.id,
          status: p.status ?? 'ACTIVE',
          type: 'SYSTEM_DEFINED',
        })),
      });
    });
    return this;
  }

  /** A query parameter the operation does not take: AWS would refuse it, the fake records a failure. */
  private unexpectedQuery(req: RecordedRequest, res: ServerResponse, known: readonly string[]): boolean {
    const unknown = Object.keys(req.query).filter((k) => !known.includes(k));
    if (!unknown.length) return false;
    this.http.failures.push(`${req.path}: unexpected query ${unknown.join(', ')}`);
    awsError(res, 400, 'ValidationException', `Unknown parameters: ${unknown.join(', ')}`);
    return true;
  }

  /** Checks the SigV4 header the way AWS does; answers AWS's 403 for wrong credentials. */
  private refused(req: RecordedRequest, res: ServerResponse): boolean {
    const sig = parseSigV4(req.headers.authorization as string | undefined);
    const fail = (why: string) => {
      this.http.failures.push(`${req.path}: ${why}`);
      awsError(res, 400, 'IncompleteSignatureException', why);
      return true;
    };
    if (!sig) return fail(`not a SigV4 Authorization header: ${req.headers.authorization}`);
    this.signatures.push(sig);
    const { credential } = sig;
    if (sig.algorithm !== 'AWS4-HMAC-SHA256') return fail(`algorithm ${sig.algorithm}`);
    if (credential.region !== this.opts.region) return fail(`signed for region ${credential.region}`);
    if (credential.service !== 'bedrock') return fail(`signed for service ${credential.service}`);
    if (credential.terminator !== 'aws4_request') return fail(`scope ends in ${credential.terminator}`);
    for (const h of ['host', 'x-amz-date'])
      if (!sig.signedHeaders.includes(h)) return fail(`${h} not signed`);
    const amzDate = String(req.headers['x-amz-date'] ?? '');
    if (!amzDate.startsWith(credential.date))
      return fail(`x-amz-date ${amzDate} outside scope ${credential.date}`);
    if (this.opts.sessionToken !== undefined) {
      if (req.headers['x-amz-security-token'] !== this.opts.sessionToken)
        return fail('session token missing');
      if (!sig.signedHeaders.includes('x-amz-security-token')) return fail('session token not signed');
    }
    if (credential.accessKeyId !== this.opts.accessKeyId) {
      awsError(
        res,
        403,
        'UnrecognizedClientException',
        'The security token included in the request is invalid.',
      );
      return true;
    }
    if (expectedSignature(req, sig, this.opts.secretAccessKey) !== sig.signature) {
      awsError(
        res,
        403,
        'InvalidSignatureException',
        'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
      );
      return true;
    }
    return false;
  }

  private async answerConverse(res: ServerResponse, script: FakeConverseScript): Promise<void> {
    if (script.kind === 'hang') return;
    if (script.kind === 'error') return awsError(res, script.status, script.type, script.message);
    res.writeHead(200, {
      'content-type': 'application/vnd.amazon.eventstream',
      'x-amzn-requestid': 'f3b5c1a2-0000-4000-8000-000000000001',
    });
    const send = async (bytes: Uint8Array) => {
      res.write(bytes);
      await tick();
    };
    await send(event('messageStart', { role: 'assistant' }));
    const text = script.text ?? [];
    if (text.length) {
      for (const piece of text)
        await send(event('contentBlockDelta', { contentBlockIndex: 0, delta: { text: piece } }));
      await send(event('contentBlockStop', { contentBlockIndex: 0 }));
    }
    if (script.kind === 'exception') {
      await send(
        frame(
          {
            ':exception-type': script.type,
            ':content-type': 'application/json',
            ':message-type': 'exception',
          },
          { message: script.message },
        ),
      );
      res.end();
      return;
    }
    const calls = script.toolCalls ?? [];
    for (const [i, c] of calls.entries()) {
      const index = (text.length ? 1 : 0) + i;
      await send(
        event('contentBlockStart', {
          contentBlockIndex: index,
          start: { toolUse: { toolUseId: c.id, name: c.name } },
        }),
      );
      const input = typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments);
      for (const frag of fragments(input)) {
        await send(
          event('contentBlockDelta', { contentBlockIndex: index, delta: { toolUse: { input: frag } } }),
        );
      }
      await send(event('contentBlockStop', { contentBlockIndex: index }));
    }
    await send(
      event('messageStop', { stopReason: script.stopReason ?? (calls.length ? 'tool_use' : 'end_turn') }),
    );
    const usage = script.usage ?? { input: 10, output: 20 };
    await send(
      event('metadata', {
        usage: {
          inputTokens: usage.input,
          outputTokens: usage.output,
          totalTokens: usage.input + usage.output,
        },
        metrics: { latencyMs: 412 },
      }),
    );
    res.end();
  }
}

const FOUNDATION_MODELS = 'GET /foundation-models';
const INFERENCE_PROFILES = 'GET /inference-profiles';
const FOUNDATION_MODEL_FILTERS = ['byOutputModality', 'byInferenceType', 'byProvider', 'byCustomizationType'];

/** A model ListFoundationModels lists; defaults: text out, streaming, on demand. */
export interface FakeFoundationModel {
  modelId: string;
  output?: string[];
  streaming?: boolean;
  inference?: string[];
}

export interface FakeInferenceProfile {
  /** e.g. `us.anthropic.claude-sonnet-4-5-20250929-v1:0`. */
  id: string;
  /** The foundation model ids it routes to. */
  models: string[];
  status?: string;
}

/** A `modelSummaries` entry as ListFoundationModels answers it. */
function foundationModelSummary(region: string, m: FakeFoundationModel) {
  const provider = m.modelId.split('.')[0]!;
  return {
    modelArn: `arn:aws:bedrock:${region}::foundation-model/${m.modelId}`,
    modelId: m.modelId,
    modelName: m.modelId,
    providerName: provider.charAt(0).toUpperCase() + provider.slice(1),
    inputModalities: ['TEXT'],
    outputModalities: m.output ?? ['TEXT'],
    responseStreamingSupported: m.streaming ?? true,
    customizationsSupported: [],
    inferenceTypesSupported: m.inference ?? ['ON_DEMAND'],
    modelLifecycle: { status: 'ACTIVE' },
  };
}

function converseRoute(model: string): string {
  return `POST /model/${encodeURIComponent(model)}/converse-stream`;
}

function awsError(res: ServerResponse, status: number, type: string, message?: string): void {
  res.writeHead(status, {
    'content-type': 'application/json',
    'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
    'x-amzn-requestid': 'f3b5c1a2-0000-4000-8000-000000000002',
  });
  res.end(JSON.stringify({ message: message ?? DEFAULT_MESSAGES[type] ?? type }));
}

export async function startFakeBedrock(opts: FakeBedrockOptions, models: string[]): Promise<FakeBedrock> {
  const fake = new FakeBedrock(opts, models);
  await fake.http.start();
  return fake;
}
