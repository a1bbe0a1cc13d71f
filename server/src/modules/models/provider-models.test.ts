/**
 * Installing Azure OpenAI, Amazon Bedrock and Ollama models, and the install form's model list
 * (`POST …/avamodels/{modelId}/provider-models`) against fakes of the servers that list them — OpenAI-compatible,
 * Ollama, Azure OpenAI, Amazon Bedrock (ADR 0039).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FakeAzureOpenAI,
  type FakeBedrock,
  type FakeOllama,
  type FakeOpenAI,
  startFakeAzureOpenAI,
  startFakeBedrock,
  startFakeOllama,
  startFakeOpenAI,
} from '../../test/fakes';
import { Client, createTestServer, makeUser, makeVendor, type TestServer } from '../../test/harness';

let server: TestServer;
let openai: FakeOpenAI;
let ollama: FakeOllama;
let azure: FakeAzureOpenAI;
let azureDated: FakeAzureOpenAI;
let bedrock: FakeBedrock;
let c: Client;
let outsider: Client;
let base = '';
const KEY = 'sk-list-models-secret-0123';
const AZURE_KEY = 'azure-list-key-0123456789abcdef';
const AWS = {
  region: 'eu-central-1',
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  sessionToken: 'FwoGZXIvYXdzEBYaDFAKEsessiontoken',
};
beforeAll(async () => {
  server = await createTestServer();
  openai = await startFakeOpenAI({ apiKey: KEY });
  ollama = await startFakeOllama();
  azure = await startFakeAzureOpenAI({ apiKey: AZURE_KEY, deployment: 'unused', apiVersion: 'v1' });
  azureDated = await startFakeAzureOpenAI({
    apiKey: AZURE_KEY,
    deployment: 'unused',
    apiVersion: '2024-10-21',
  });
  bedrock = await startFakeBedrock(AWS, []);
  const vendor = await makeVendor(server.ctx);
  const user = await makeUser(server.ctx, { vendors: [vendor] });
  c = await Client.signedIn(server.app, user.email, user.password);
  const other = await makeUser(server.ctx, { vendors: [await makeVendor(server.ctx, 'Other Org')] });
  outsider = await Client.signedIn(server.app, other.email, other.password);
  base = `/v1/vendors/${vendor.id}`;
});
afterAll(async () => {
  await server?.close();
  for (const fake of [openai, ollama, azure, azureDated, bedrock]) await fake?.close();
});

const list = (modelId: string, parameters: unknown) =>
  c.post(`${base}/avamodels/${modelId}/provider-models`, { parameters });

describe('install', () => {
  it('Azure: a resource name or a base URL is needed; the key is sealed, only its hint answered', async () => {
    const missing = await c.post(`${base}/avamodels/azure-openai-chat/install`, {
      parameters: { deployment: 'gpt-4o-prod', api_key: 'azure-secret-key-0123456789' },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.body).not.toContain('azure-secret-key');
    expect(missing.json().errors.parameters['x-errors']).toEqual({
      resource_name: 'Give one of: Resource name, Base URL.',
    });
    const res = await c.post(`${base}/avamodels/azure-openai-chat/install`, {
      parameters: {
        resource_name: 'contoso-eu',
        deployment: 'gpt-4o-prod',
        api_key: 'azure-secret-key-0123456789',
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({
      name: 'gpt-4o-prod (Azure OpenAI)',
      provider: 'azure',
      parameters: { resource_name: 'contoso-eu', deployment: 'gpt-4o-prod' },
      secret_hints: { api_key: '…6789' },
    });
  });

  it('Bedrock: the secret key and session token are secrets; a bad region is a field error', async () => {
    const parameters = {
      region: 'eu-central-1',
      model: 'eu.anthropic.claude-sonnet-4-5-20250929-v1:0',
      access_key_id: 'AKIAIOSFODNN7EXAMPLE',
      secret_access_key: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      session_token: 'FwoGZXIvYXdzEBYaDFAKEsessiontoken',
    };
    const res = await c.post(`${base}/avamodels/amazon-bedrock-chat/install`, { parameters });
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data;
    expect(data.parameters).toEqual({
      region: 'eu-central-1',
      model: parameters.model,
      access_key_id: parameters.access_key_id,
    });
    expect(data.secret_hints).toEqual({ secret_access_key: '…EKEY', session_token: '…oken' });
    expect(res.body).not.toContain('bPxRfiCY');

    const bad = await c.post(`${base}/avamodels/amazon-bedrock-chat/install`, {
      parameters: { ...parameters, region: 'Frankfurt' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.parameters['x-errors']).toEqual({ region: 'Has an invalid format.' });
    expect(bad.body).not.toContain('bPxRfiCY');
  });

  it('Ollama: a server on a private network is refused unless the operator opens it (OUTBOUND_ALLOW)', async () => {
    const res = await c.post(`${base}/avamodels/ollama-chat/install`, {
      parameters: { base_url: 'http://192.168.1.20:11434/api', model: 'llama3.1:8b' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.parameters['x-errors'].base_url).toMatch(/OUTBOUND_ALLOW/);
    const allowed = await c.post(`${base}/avamodels/ollama-chat/install`, {
      parameters: { base_url: ollama.baseUrl, model: 'llama3.1:8b' },
    });
    expect(allowed.statusCode, allowed.body).toBe(201);
    expect(allowed.json().data.name).toBe('llama3.1:8b (Ollama)');
  });
});

describe('the model list at install', () => {
  it('Ollama: the names of /api/tags, sorted', async () => {
    ollama.tags(['qwen3:8b', 'llama3.1:8b', 'nomic-embed-text:latest']);
    const res = await list('ollama-chat', { base_url: ollama.baseUrl, model: '' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      data: [{ id: 'llama3.1:8b' }, { id: 'nomic-embed-text:latest' }, { id: 'qwen3:8b' }],
    });
    expect(ollama.requests.at(-1)).toMatchObject({ method: 'GET', path: '/api/tags' });
    expect(ollama.failures).toEqual([]);
  });

  it('OpenAI-compatible: GET {base}/models with the key typed so far as a bearer token', async () => {
    openai.models(['Qwen/Qwen2.5-7B-Instruct', 'BAAI/bge-m3']);
    const res = await list('openai-compatible-chat', { base_url: openai.baseUrl, api_key: KEY });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual([{ id: 'BAAI/bge-m3' }, { id: 'Qwen/Qwen2.5-7B-Instruct' }]);
    expect(openai.requests.at(-1)!.headers.authorization).toBe(`Bearer ${KEY}`);
    // A wrong key: the server's 401 words.
    openai.models(['never listed']);
    const denied = await list('openai-compatible-chat', {
      base_url: openai.baseUrl,
      api_key: 'sk-wrong-0000',
    });
    expect(denied.statusCode).toBe(502);
    expect(denied.json().message).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/v1\/models answered HTTP 401: Incorrect API key provided/,
    );
    expect(openai.failures).toEqual([]);
  });

  it('a server error is 502 with the server’s words, the key never in them', async () => {
    ollama.tags({ status: 401, message: `unauthorized key ${KEY}` });
    const res = await list('ollama-embedding', { base_url: ollama.baseUrl, api_key: KEY });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({
      name: 'BadGateway',
      message: `${ollama.baseUrl}/tags answered HTTP 401: unauthorized key ***`,
    });
    expect(ollama.requests.at(-1)!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('an answer that is not a model list is 502; an unreachable server is 502', async () => {
    ollama.http.enqueue('GET /api/tags', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>captive portal</html>');
    });
    const unreadable = await list('ollama-chat', { base_url: ollama.baseUrl });
    expect(unreadable.json()).toEqual({
      name: 'BadGateway',
      message: `${ollama.baseUrl}/tags did not answer a list of models.`,
    });
    const unreachable = await list('ollama-chat', { base_url: 'http://127.0.0.1:1/api' });
    expect(unreachable.statusCode).toBe(502);
    expect(unreachable.json().message).toBe('Could not reach http://127.0.0.1:1/api/tags.');
  });

  it('the outbound guard refuses a private address before any connection (400 with its words)', async () => {
    const res = await list('ollama-chat', { base_url: 'http://10.0.0.5:11434/api' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/private or local network.*OUTBOUND_ALLOW/);
  });

  it('bad input: 400 without a base URL or for a provider that lists nothing, 404 for an unknown entry', async () => {
    expect((await list('openai-compatible-chat', {})).json()).toEqual({
      name: 'BadRequest',
      message: 'Type the server’s base URL (http:// or https://) first.',
    });
    expect((await list('openai-compatible-chat', { base_url: 'ftp://x' })).statusCode).toBe(400);
    expect((await list('openai-compatible-chat', { base_url: 42 })).statusCode).toBe(400);
    const unsupported = await list('openai-gpt-4o', { api_key: KEY });
    expect(unsupported.statusCode).toBe(400);
    expect(unsupported.json().message).toBe(
      'This model’s provider does not list its models; type the model name.',
    );
    expect((await list('no-such-model', {})).statusCode).toBe(404);
    expect(
      (await c.post(`${base}/avamodels/ollama-chat/provider-models`, { parameters: 'x' })).statusCode,
    ).toBe(400);
    expect(ollama.pending()).toBe(0);
    expect(ollama.failures).toEqual([]);
  });
});

describe('the model list at install: Azure OpenAI', () => {
  it('v1: the models the resource can serve with the key typed, chat or embedding by Azure’s capabilities', async () => {
    azure.models(['gpt-4o-2024-11-20', 'text-embedding-3-small', 'gpt-4.1'], ['text-embedding-3-small']);
    const chat = await list('azure-openai-chat', { base_url: azure.baseUrl, api_key: AZURE_KEY });
    expect(chat.statusCode, chat.body).toBe(200);
    expect(chat.json().data).toEqual([{ id: 'gpt-4.1' }, { id: 'gpt-4o-2024-11-20' }]);
    const asked = azure.requests.at(-1)!;
    expect(asked).toMatchObject({ method: 'GET', path: '/openai/v1/models', query: {} });
    expect(asked.headers['api-key']).toBe(AZURE_KEY);
    expect(asked.headers.authorization).toBeUndefined();

    azure.models(['gpt-4o-2024-11-20', 'text-embedding-3-small'], ['text-embedding-3-small']);
    const embedding = await list('azure-openai-embedding', {
      base_url: `${azure.baseUrl}/`,
      api_key: AZURE_KEY,
    });
    expect(embedding.json().data).toEqual([{ id: 'text-embedding-3-small' }]);
    expect(azure.failures).toEqual([]);
  });

  it('a dated API version asks GET {base}/models?api-version=…', async () => {
    azureDated.models(['gpt-4o-2024-08-06']);
    const res = await list('azure-openai-chat', {
      base_url: azureDated.baseUrl,
      api_version: '2024-10-21',
      api_key: AZURE_KEY,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual([{ id: 'gpt-4o-2024-08-06' }]);
    expect(azureDated.requests.at(-1)).toMatchObject({
      path: '/openai/models',
      query: { 'api-version': '2024-10-21' },
    });
    expect(azureDated.failures).toEqual([]);
  });

  it('a refused key is 502 in Azure’s words; without a resource or a key it says what to type', async () => {
    azure.models(['never listed']);
    const denied = await list('azure-openai-chat', { base_url: azure.baseUrl, api_key: 'wrong-key-0000' });
    expect(denied.statusCode).toBe(502);
    expect(denied.json().message).toBe(
      `${azure.baseUrl}/v1/models answered HTTP 401: Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.`,
    );
    const needs = 'Type the resource name (or the base URL) and the API key first.';
    expect((await list('azure-openai-chat', { base_url: azure.baseUrl })).json().message).toBe(needs);
    expect((await list('azure-openai-chat', { api_key: AZURE_KEY })).json().message).toBe(needs);
    expect(
      (await list('azure-openai-chat', { resource_name: 'evil.example/x', api_key: AZURE_KEY })).statusCode,
    ).toBe(400);
    expect(azure.pending()).toBe(0);
    expect(azure.failures).toEqual([]);
  });

  it('the outbound guard refuses a private base URL before any connection', async () => {
    const res = await list('azure-openai-chat', { base_url: 'http://10.0.0.5/openai', api_key: AZURE_KEY });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/private or local network.*OUTBOUND_ALLOW/);
  });
});

describe('the model list at install: Amazon Bedrock', () => {
  const credentials = {
    region: AWS.region,
    access_key_id: AWS.accessKeyId,
    secret_access_key: AWS.secretAccessKey,
    session_token: AWS.sessionToken,
  };

  it('the text models that stream, on demand or through an inference profile, signed with SigV4', async () => {
    const sonnet = 'anthropic.claude-sonnet-4-5-20250929-v1:0';
    bedrock
      .foundationModels([
        { modelId: sonnet, inference: ['INFERENCE_PROFILE'] },
        { modelId: 'amazon.nova-pro-v1:0', inference: ['ON_DEMAND', 'INFERENCE_PROFILE'] },
        { modelId: 'amazon.titan-embed-text-v2:0', output: ['EMBEDDING'] },
        { modelId: 'stability.sd3-5-large-v1:0', output: ['IMAGE'], inference: ['INFERENCE_PROFILE'] },
        { modelId: 'amazon.titan-text-lite-v1:0:4k', streaming: false, inference: ['PROVISIONED'] },
      ])
      .inferenceProfiles([
        { id: `eu.${sonnet}`, models: [sonnet] },
        { id: `global.${sonnet}`, models: [sonnet] },
        { id: 'eu.amazon.nova-pro-v1:0', models: ['amazon.nova-pro-v1:0'] },
        { id: 'us.stability.sd3-5-large-v1:0', models: ['stability.sd3-5-large-v1:0'] },
        { id: 'eu.meta.llama3-2-1b-instruct-v1:0', models: ['meta.llama3-2-1b-instruct-v1:0'] },
        { id: 'eu.amazon.nova-lite-v1:0', models: ['amazon.nova-pro-v1:0'], status: 'INACTIVE' },
      ]);
    const res = await list('amazon-bedrock-chat', { ...credentials, base_url: bedrock.baseUrl });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual([
      { id: 'amazon.nova-pro-v1:0' },
      { id: 'eu.amazon.nova-pro-v1:0' },
      { id: `eu.${sonnet}` },
      { id: `global.${sonnet}` },
    ]);
    const asked = bedrock.requests.slice(-2).map((r) => ({ path: r.path, query: r.query }));
    expect(asked).toEqual(
      expect.arrayContaining([
        { path: '/foundation-models', query: { byOutputModality: 'TEXT' } },
        { path: '/inference-profiles', query: { maxResults: '1000' } },
      ]),
    );
    // Each signature recomputed by the fake from the secret key: scope region and service `bedrock`.
    for (const sig of bedrock.signatures.slice(-2)) {
      expect(sig.credential).toMatchObject({ region: AWS.region, service: 'bedrock' });
      expect(sig.signedHeaders).toContain('x-amz-security-token');
    }
    expect(bedrock.failures).toEqual([]);
  });

  it('credentials AWS does not know are 502 in AWS’s words, the secret never in them', async () => {
    bedrock.foundationModels([]).inferenceProfiles([]);
    const res = await list('amazon-bedrock-chat', {
      ...credentials,
      access_key_id: 'AKIAWRONGWRONGWRONG0',
      base_url: bedrock.baseUrl,
    });
    expect(res.statusCode).toBe(502);
    expect(res.json().message).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/(foundation-models\?byOutputModality=TEXT|inference-profiles\?maxResults=1000) answered HTTP 403: The security token included in the request is invalid\.$/,
    );
    expect(res.body).not.toContain('bPxRfiCY');
    expect(bedrock.pending()).toBe(0);
    expect(bedrock.failures).toEqual([]);
  });

  it('without the region and keys it says what to type; the guard refuses a private endpoint', async () => {
    const needs = 'Type the AWS region, the access key ID and the secret access key first.';
    const { secret_access_key: _, ...noSecret } = credentials;
    expect((await list('amazon-bedrock-chat', noSecret)).json()).toEqual({
      name: 'BadRequest',
      message: needs,
    });
    expect((await list('amazon-bedrock-chat', { ...credentials, region: 'Frankfurt' })).json().message).toBe(
      needs,
    );
    const guarded = await list('amazon-bedrock-chat', { ...credentials, base_url: 'http://10.0.0.5' });
    expect(guarded.statusCode).toBe(400);
    expect(guarded.json().message).toMatch(/private or local network.*OUTBOUND_ALLOW/);
    // The titan embedding entry names its model: nothing to list.
    expect((await list('amazon-bedrock-titan-embed-text-v2', credentials)).statusCode).toBe(400);
    expect(bedrock.pending()).toBe(0);
  });
});

describe('the model list at install: access', () => {
  it('another vendor’s member gets 404, and the provider is never asked', async () => {
    const before = azure.requests.length;
    const res = await outsider.post(`${base}/avamodels/azure-openai-chat/provider-models`, {
      parameters: { base_url: azure.baseUrl, api_key: AZURE_KEY },
    });
    expect(res.statusCode).toBe(404);
    expect(azure.requests.length).toBe(before);
  });
});
