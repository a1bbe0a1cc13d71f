/**
 * Installing Azure OpenAI, Amazon Bedrock and Ollama models, and the install form's model list
 * (`POST …/avamodels/{modelId}/provider-models`) against fakes of the servers that list them (ADR 0039).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOllama, type FakeOpenAI, startFakeOllama, startFakeOpenAI } from '../../test/fakes';
import { Client, createTestServer, makeUser, makeVendor, type TestServer } from '../../test/harness';

let server: TestServer;
let openai: FakeOpenAI;
let ollama: FakeOllama;
let c: Client;
let base = '';
const KEY = 'sk-list-models-secret-0123';
beforeAll(async () => {
  server = await createTestServer();
  openai = await startFakeOpenAI({ apiKey: KEY });
  ollama = await startFakeOllama();
  const vendor = await makeVendor(server.ctx);
  const user = await makeUser(server.ctx, { vendors: [vendor] });
  c = await Client.signedIn(server.app, user.email, user.password);
  base = `/v1/vendors/${vendor.id}`;
});
afterAll(async () => {
  await server?.close();
  await openai?.close();
  await ollama?.close();
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
