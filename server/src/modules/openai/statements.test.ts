import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Client,
  createTestServer,
  recordStatements,
  signedInVendor,
  type TestServer,
} from '../../test/harness';
import { finish, makeChatApp, makeVendorModel, ScriptedModel, text } from '../completion/testing';

/**
 * The SQL statements one OpenAI-compatible call may run (bench/README.md "reach", docs/adr/0046 and its
 * "Amended 2026-11-25"): the API client with its vendor, its use counted in the same statement; the
 * conversation opened with the call's history and read with its app, model and plan (or, with
 * `X-Conversation`, the conversation read with them); the request's reservation with the lease, the user's
 * message, the context and the tools; the answer with its usage, its tokens and the lease's release. A call
 * that runs more fails here. A client with a rate limit is counted after it, in one statement more.
 */
const CALL_STATEMENT_BUDGET = 4;

let server: TestServer;
let owner: Client;
let clientUrl: string;
let bearer: string;

beforeAll(async () => {
  server = await createTestServer({
    engine: { resolveModel: () => new ScriptedModel([[text('Fine.'), finish()]]) },
  });
  const { vendor, client } = await signedInVendor(server, 'member');
  owner = client;
  const app = await makeChatApp(server.ctx, vendor, { model: await makeVendorModel(server.ctx, vendor) });
  const created = await owner.post(`/v1/vendors/${vendor.id}/apps/${app.id}/clients`, { name: 'SDK' });
  expect(created.statusCode, created.body).toBe(201);
  bearer = created.json().data.full_token;
  clientUrl = `/v1/vendors/${vendor.id}/apps/${app.id}/clients/${created.json().data.id}`;
});
afterAll(() => server?.close());

async function statementsOf(url: string, body: object, headers: Record<string, string> = {}) {
  const recording = recordStatements(server.ctx.db);
  try {
    const res = await server.app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${bearer}`, ...headers },
      payload: body,
    });
    expect(res.statusCode, res.body).toBe(200);
    return { statements: [...recording.statements], conversation: String(res.headers['x-conversation']) };
  } finally {
    recording.stop();
  }
}

const chat = (messages: object[], headers?: Record<string, string>) =>
  statementsOf('/v1/openai/chat/completions', { model: 'm', messages }, headers);

describe('what an OpenAI-compatible call costs the database', () => {
  it(`runs at most ${CALL_STATEMENT_BUDGET} statements, with or without history`, async () => {
    const single = await chat([{ role: 'user', content: 'How are you?' }]);
    expect(single.statements.length, single.statements.join('\n')).toBeLessThanOrEqual(CALL_STATEMENT_BUDGET);
    const history = await chat([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hello' },
      { role: 'assistant', content: 'Hi.' },
      { role: 'user', content: 'How are you?' },
    ]);
    expect(history.statements.length, history.statements.join('\n')).toBe(single.statements.length);
    const continued = await chat([{ role: 'user', content: 'And now?' }], {
      'x-conversation': history.conversation,
    });
    expect(continued.statements.length, continued.statements.join('\n')).toBeLessThanOrEqual(
      CALL_STATEMENT_BUDGET,
    );
    const streamed = await statementsOf('/v1/openai/chat/completions', {
      model: 'm',
      stream: true,
      messages: [{ role: 'user', content: 'How are you?' }],
    });
    expect(streamed.statements.length).toBe(single.statements.length);
    const response = await statementsOf('/v1/openai/responses', { input: 'How are you?' });
    expect(response.statements.length).toBe(single.statements.length);
    const streamedResponse = await statementsOf('/v1/openai/responses', {
      input: 'How are you?',
      stream: true,
    });
    expect(streamedResponse.statements.length).toBe(single.statements.length);
  });

  it('runs one statement more for a client with a rate limit: its use is counted once it passed the limit', async () => {
    const limited = await owner.put(clientUrl, {
      name: 'SDK',
      active: true,
      request_rate_limit: 1000,
      request_rate_interval: 60,
    });
    expect(limited.statusCode, limited.body).toBe(200);
    const call = await chat([{ role: 'user', content: 'How are you?' }]);
    expect(call.statements.length, call.statements.join('\n')).toBe(CALL_STATEMENT_BUDGET + 1);
  });
});
