/**
 * A provider from install to reply through the HTTP API (inject): Gemini installed with its key and a
 * base URL (the fake's), an app answering with it through the OpenAI-compatible endpoint, its usage
 * counted, its refusal shown as Google said it, and a base URL on a private network refused at install.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeGemini, startFakeGemini } from '../../test/fakes';
import { type Client, createTestServer, signedInVendor, type TestServer } from '../../test/harness';
import { closeSiliconPools } from '../functions/sandbox';

const KEY = 'AIzaSy-install-test-0123456789wxyz';

let server: TestServer;
let gemini: FakeGemini;
let owner: Client;
let base: string;
beforeAll(async () => {
  [server, gemini] = await Promise.all([createTestServer(), startFakeGemini({ apiKey: KEY })]);
  const { vendor, client } = await signedInVendor(server, 'member');
  owner = client;
  base = `/v1/vendors/${vendor.id}`;
});
afterAll(async () => {
  await server?.close();
  await gemini?.close();
  await closeSiliconPools();
});

/** An app answering with `modelId` and the bearer token of an API client of it. */
async function appAnswering(modelId: number): Promise<string> {
  const app = (await owner.post(`${base}/apps`, { app_key: 'chatbot' })).json().data;
  const put = await owner.put(`${base}/apps/${app.id}`, {
    name: app.name,
    completion_vendor_model_id: modelId,
  });
  expect(put.statusCode, put.body).toBe(200);
  const client = await owner.post(`${base}/apps/${app.id}/clients`, { name: 'SDK' });
  expect(client.statusCode, client.body).toBe(201);
  return client.json().data.full_token;
}

const complete = (token: string, content: string) =>
  server.app.inject({
    method: 'POST',
    url: '/v1/openai/chat/completions',
    headers: { authorization: `Bearer ${token}` },
    payload: { model: 'my-app', messages: [{ role: 'user', content }] },
  });

describe('Gemini from install to reply', () => {
  it('installs with the key sealed, answers through the app with Google’s usage, shows Google’s refusal', async () => {
    const installed = await owner.post(`${base}/avamodels/google-gemini-3.8-flash/install`, {
      parameters: { api_key: KEY, base_url: gemini.baseUrl },
    });
    expect(installed.statusCode, installed.body).toBe(201);
    expect(installed.body).not.toContain(KEY);
    const model = installed.json().data;
    expect(model).toMatchObject({
      name: 'Gemini 3.8 Flash',
      provider: 'google',
      image: 'icon:brand-google',
      parameters: { base_url: gemini.baseUrl },
      secret_hints: { api_key: '…wxyz' },
    });
    const token = await appAnswering(model.id);

    gemini.stream({ kind: 'reply', text: ['Grüezi ', 'from Gemini.'], usage: { prompt: 21, candidates: 4 } });
    const res = await complete(token, 'Hello');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      choices: [{ message: { role: 'assistant', content: 'Grüezi from Gemini.' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 21, completion_tokens: 4, total_tokens: 25 },
    });
    const sent = gemini.requests.at(-1)!;
    expect(sent).toMatchObject({
      path: '/v1beta/models/gemini-3.8-flash:streamGenerateContent',
      query: { alt: 'sse' },
      headers: { 'x-goog-api-key': KEY },
    });
    expect((sent.body as { contents: unknown[] }).contents.at(-1)).toEqual({
      role: 'user',
      parts: [{ text: 'Hello' }],
    });

    gemini.stream({ kind: 'error', status: 429 });
    const limited = await complete(token, 'Again');
    expect(limited.statusCode).toBe(500);
    expect(limited.json().error.message).toContain(
      'Google Gemini is rate-limiting requests: You exceeded your current quota, please check your plan and billing details.',
    );
    gemini.expectNoFailures();
    expect(gemini.pending()).toBe(0);
  });

  it('refuses a base URL on a private network at install, as a field error; stores nothing', async () => {
    const before = (await owner.get(`${base}/models`)).json().total_count;
    const res = await owner.post(`${base}/avamodels/google-gemini-3.8-flash/install`, {
      parameters: { api_key: KEY, base_url: 'http://10.0.0.8/v1beta' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 52 });
    expect(res.json().errors.parameters.properties.base_url['x-error']).toBe(
      'http://10.0.0.8:80 is on a private or local network; the operator can allow it with OUTBOUND_ALLOW.',
    );
    expect(res.body).not.toContain(KEY);
    expect((await owner.get(`${base}/models`)).json().total_count).toBe(before);
  });
});
