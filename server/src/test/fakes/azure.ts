/**
 * Fake Azure OpenAI on 127.0.0.1:<random port>, real wire protocol (chat completions SSE and embeddings
 * as OpenAI's — see openai.ts — under Azure's paths, with Azure's key header and error bodies):
 * - the v1 API (`apiVersion: 'v1'`): `POST /openai/v1/chat/completions` and `POST /openai/v1/embeddings`,
 *   the deployment named in the body's `model`, no `api-version` query;
 * - dated versions (`apiVersion: '2024-10-21'`): `POST /openai/deployments/{deployment}/chat/completions`
 *   and `…/embeddings` with `?api-version=2024-10-21`.
 * The key travels in the `api-key` header; a wrong one answers Azure's 401 body (`{"error": {"code": "401",
 * "message"}}`). A stream starts with Azure's `prompt_filter_results` chunk (empty `choices`). Another
 * deployment, another or a missing `api-version` answers Azure's 404 and is recorded as a failure.
 * The model list: `GET /openai/v1/models` (v1) or `GET /openai/models?api-version=…` (dated) →
 * `{data: [{id, capabilities: {chat_completion, embeddings, …}, lifecycle_status, …}], object: 'list'}`.
 *
 * ```ts
 * const azure = await startFakeAzureOpenAI({ apiKey: 'k', deployment: 'gpt-4o-prod', apiVersion: 'v1' });
 * azure.baseUrl;                         // http://127.0.0.1:<port>/openai (what the install form's base URL takes)
 * azure.chat({ kind: 'reply', text: ['Hi'] });  azure.embeddings({ kind: 'embeddings', dimensions: 4 });
 * ```
 */
import type { ServerResponse } from 'node:http';
import { type RecordedRequest, sendJson } from './http';
import { FakeOpenAI } from './openai';

export interface FakeAzureOptions {
  apiKey: string;
  deployment: string;
  /** `v1` or a dated version such as `2024-10-21`. */
  apiVersion: string;
}

const AZURE_ERRORS: Record<number, { code: string; message: string }> = {
  400: { code: 'BadRequest', message: 'Invalid request.' },
  401: {
    code: '401',
    message:
      'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
  },
  404: { code: 'DeploymentNotFound', message: 'The API deployment for this resource does not exist.' },
  429: {
    code: '429',
    message:
      'Requests to the ChatCompletions_Create Operation under Azure OpenAI API version 2024-10-21 have exceeded token rate limit of your current OpenAI S0 pricing tier. Please retry after 6 seconds.',
  },
  500: { code: 'InternalServerError', message: 'The server had an error while processing your request.' },
};

function azureErrorBody(status: number) {
  return { error: AZURE_ERRORS[status] ?? { code: String(status), message: `HTTP ${status}` } };
}

function azureRoutes({ deployment, apiVersion }: FakeAzureOptions) {
  const base = apiVersion === 'v1' ? '/openai/v1' : `/openai/deployments/${deployment}`;
  return {
    chat: `POST ${base}/chat/completions`,
    embeddings: `POST ${base}/embeddings`,
    models: apiVersion === 'v1' ? 'GET /openai/v1/models' : 'GET /openai/models',
  };
}

export class FakeAzureOpenAI extends FakeOpenAI {
  constructor(private readonly azure: FakeAzureOptions) {
    super({ apiKey: azure.apiKey }, azureRoutes(azure));
  }

  /** The base URL to install with (ends in `/openai`). */
  override get baseUrl(): string {
    return `${this.http.url}/openai`;
  }

  /**
   * Answers the next model list in Azure's shape: the models the resource can serve (not its deployments),
   * each with its `capabilities` — chat, or embeddings for the ids in `embeddings`.
   */
  override models(ids: string[], embeddings: string[] = []): this {
    this.http.enqueue(this.routes.models!, (req, res) => {
      if (this.refused(req, res)) return;
      sendJson(res, 200, {
        data: ids.map((id) => {
          const embedding = embeddings.includes(id);
          return {
            status: 'succeeded',
            capabilities: {
              fine_tune: false,
              inference: true,
              completion: false,
              chat_completion: !embedding,
              embeddings: embedding,
            },
            lifecycle_status: 'generally-available',
            deprecation: { inference: 1_798_761_600 },
            id,
            created_at: 1_715_558_400,
            object: 'model',
          };
        }),
        object: 'list',
      });
    });
    return this;
  }

  protected override refused(req: RecordedRequest, res: ServerResponse): boolean {
    const { deployment, apiVersion } = this.azure;
    const sentVersion = req.query['api-version'];
    // Chat and embeddings name the deployment (v1: in the body); the model list names none.
    const named = req.method === 'GET' || (req.body as { model?: unknown } | undefined)?.model === deployment;
    const wrongTarget =
      apiVersion === 'v1' ? sentVersion !== undefined || !named : sentVersion !== apiVersion;
    if (wrongTarget) {
      this.http.failures.push(
        `${req.path}: expected deployment ${deployment} at api-version ${apiVersion}, got api-version ${sentVersion} and model ${(req.body as { model?: unknown })?.model}`,
      );
      sendJson(res, 404, azureErrorBody(404));
      return true;
    }
    if (req.headers['api-key'] === this.azure.apiKey) return false;
    sendJson(res, 401, azureErrorBody(401));
    return true;
  }

  protected override errorBody(status: number): unknown {
    return azureErrorBody(status);
  }

  protected override preludeChunks(): Record<string, unknown>[] {
    const safe = { filtered: false, severity: 'safe' };
    return [
      {
        id: '',
        object: '',
        created: 0,
        model: '',
        prompt_filter_results: [
          {
            prompt_index: 0,
            content_filter_results: { hate: safe, self_harm: safe, sexual: safe, violence: safe },
          },
        ],
      },
    ];
  }
}

export async function startFakeAzureOpenAI(opts: FakeAzureOptions): Promise<FakeAzureOpenAI> {
  const fake = new FakeAzureOpenAI(opts);
  await fake.http.start();
  return fake;
}
