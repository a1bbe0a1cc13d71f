import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { schema } from '../../platform/db';
import {
  type Client,
  createTestServer,
  makeApp,
  makeFunction,
  signedInVendor,
  type TestServer,
  uniq,
} from '../../test/harness';
import { closeSiliconPools } from '../functions/sandbox';
import { findVendorApp } from '../vendors/owned';
import type { VendorRow } from '../vendors/repo';
import { RecordingRelay } from './testing';
import { functionTools, toolParameters } from './tools';

/** Also records `state_change` announcements. */
let server: TestServer;
let vendor: VendorRow;
let client: Client;
const relay = new RecordingRelay();
let modelId: number;

const ADDER = `schema = {
  arguments = {
    type = "object",
    properties = { a = { type = "integer" }, b = { type = "integer" } },
    required = { "a", "b" },
  },
  config = { type = "object", properties = { factor = { type = "integer" } } },
}
function run(args, config)
  local visits = (state.get().visits or 0) + 1
  state.patch(json.array({ { op = "add", path = "/visits", value = visits } }))
  relay.emit("adder", { sum = args.a + args.b })
  print("adding", args.a, args.b)
  return { sum = (args.a + args.b) * (config.factor or 1), visits = visits }
end
`;
const BROKEN = `function run(args)
  local t = nil
  return t.field
end
`;

beforeAll(async () => {
  server = await createTestServer({ relay });
  ({ vendor, client } = await signedInVendor(server, 'member'));
  const installed = await client.post(`/v1/vendors/${vendor.id}/avamodels/builtin-offline-demo/install`, {
    parameters: {},
  });
  expect(installed.statusCode).toBe(201);
  modelId = installed.json().data.id;
});
afterAll(async () => {
  await server?.close();
  await closeSiliconPools();
});
beforeEach(() => {
  relay.clear();
});

const api = (path: string) => `/v1/vendors/${vendor.id}${path}`;

async function createFunction(code: string, extra: Record<string, unknown> = {}) {
  const res = await client.post(api('/functions'), { name: 'Fn', function_key: uniq('fn_'), code, ...extra });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: number; function_key: string };
}

/** A chatbot app on the offline demo model with these functions installed, and a conversation in it. */
async function chatbotWith(functions: { id: number; config?: Record<string, unknown> }[]) {
  const app = (await client.post(api('/apps'), { app_key: 'chatbot' })).json().data;
  const put = await client.put(api(`/apps/${app.id}`), {
    name: app.name,
    completion_vendor_model_id: modelId,
    functions,
  });
  expect(put.statusCode, put.body).toBe(200);
  const conv = await client.post('/v1/conversations', {
    vendor_app_id: app.id,
    vendor_channel: 'management',
  });
  expect(conv.statusCode).toBe(201);
  const { token, id } = conv.json().data;
  const send = async (content: string) => {
    const res = await client.post(`/v1/conversations/${token}`, { content });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as {
      role: string;
      message: string;
      function_calls: unknown[];
      function_response: string | null;
    }[];
  };
  return { app, token, conversationId: id as number, send };
}

describe('installed functions as tools', () => {
  it('the model calls an installed function: events, tool message, stored run, state and the final reply', async () => {
    const fn = await createFunction(ADDER);
    const { token, conversationId, send } = await chatbotWith([{ id: fn.id, config: { factor: 10 } }]);

    const messages = await send(`/call ${fn.function_key} {"a": 2, "b": 3}`);
    const result = { sum: 50, visits: 1 };
    const tail = messages.slice(-4);
    expect(tail.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    const callId = (tail[1]!.function_calls[0] as { id: string }).id;
    expect(tail[1]!.function_calls).toEqual([
      { id: callId, name: fn.function_key, arguments: { a: 2, b: 3 } },
    ]);
    expect(tail[2]).toMatchObject({ function_response: callId, message: JSON.stringify(result) });
    expect(tail[3]!.message).toBe(`Tool ${fn.function_key} returned: ${JSON.stringify(result)}`);

    const events = relay.of(token).filter((e) => e.type !== 'debug');
    expect(events.find((e) => e.type === 'function_call.begin')?.data).toEqual({
      id: callId,
      name: fn.function_key,
      arguments: { a: 2, b: 3 },
    });
    expect(events.find((e) => e.type === 'function_call.end')?.data).toEqual({
      id: callId,
      name: fn.function_key,
      result,
      status: 1,
    });
    expect(events.find((e) => e.type === 'adder')?.data).toEqual({ sum: 5 });
    const types = events.map((e) => e.type);
    expect(types.indexOf('function_call.begin')).toBeLessThan(types.indexOf('adder'));
    expect(types.indexOf('adder')).toBeLessThan(types.indexOf('function_call.end'));

    const runs = await server.ctx.db
      .select()
      .from(schema.functionRuns)
      .where(eq(schema.functionRuns.functionId, fn.id));
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      conversationId,
      status: 1,
      arguments: { a: 2, b: 3 },
      config: { factor: 10 },
      result,
      console: [expect.objectContaining({ level: 1, message: 'adding\t2\t3' })],
    });
    const detail = (await client.get(api(`/functions/${fn.id}`))).json().data;
    expect(detail).toMatchObject({ run_count: 1, run_count_success: 1, success_rate: 100 });
    const viaApi = (await client.get(api(`/functions/${fn.id}/runs`))).json().data;
    expect(viaApi[0]).toMatchObject({ id: runs[0]!.id, conversation_id: conversationId });

    // the state the function patched is durable and was announced to the room
    const [conv] = await server.ctx.db
      .select()
      .from(schema.conversations)
      .where(eq(schema.conversations.id, conversationId));
    expect(conv!.state).toEqual({ visits: 1 });
    expect(relay.states).toEqual([{ token, state: { visits: 1 } }]);

    // a second call sees the stored state
    const again = await send(`/call ${fn.function_key} {"a": 1, "b": 1}`);
    expect(again.at(-1)!.message).toBe(`Tool ${fn.function_key} returned: {"sum":20,"visits":2}`);
  });

  it('a failing function answers the model with the error and its line; the run is stored as a failure', async () => {
    const fn = await createFunction(BROKEN);
    const { conversationId, send, token } = await chatbotWith([{ id: fn.id }]);
    const messages = await send(`/call ${fn.function_key} {}`);
    const tool = messages.find((m) => m.role === 'tool')!;
    const error = JSON.parse(tool.message).error as string;
    expect(error).toMatch(/^Line 3: attempt to index a nil value/);
    expect(messages.at(-1)!.message).toContain('Line 3: attempt to index a nil value');
    const end = relay.of(token).find((e) => e.type === 'function_call.end')!.data as { status: number };
    expect(end.status).toBe(-1);
    const [run] = await server.ctx.db
      .select()
      .from(schema.functionRuns)
      .where(eq(schema.functionRuns.functionId, fn.id));
    expect(run).toMatchObject({ conversationId, status: -1, error: { line: 3 } });
    expect((await client.get(api(`/functions/${fn.id}`))).json().data).toMatchObject({
      run_count: 1,
      run_count_success: 0,
      success_rate: 0,
    });
  });

  it('offers installed functions only, with their argument schemas, descriptions and names', async () => {
    const described = await createFunction(ADDER, { description: 'Adds two numbers' });
    const plain = await createFunction('function run() return 1 end', { name: 'Plain one' });
    const notInstalled = await createFunction('function run() return 1 end');
    const { app, send } = await chatbotWith([{ id: plain.id }, { id: described.id }]);
    const row = (await findVendorApp(server.ctx.db, vendor.id, app.id))!;
    expect(await functionTools.list(server.ctx, row)).toEqual([
      { name: plain.function_key, description: 'Plain one', parameters: { type: 'object', properties: {} } },
      {
        name: described.function_key,
        description: 'Adds two numbers',
        parameters: {
          type: 'object',
          properties: { a: { type: 'integer' }, b: { type: 'integer' } },
          required: ['a', 'b'],
        },
      },
    ]);
    const refused = await send(`/call ${notInstalled.function_key} {}`);
    expect(refused.at(-1)!.message).toContain('it is not offered');
  });

  it('leaves out functions specific to another app and answers unknown names with an error', async () => {
    const app = await makeApp(server.ctx, vendor, { type: 'chatbot' });
    const otherApp = await makeApp(server.ctx, vendor);
    const specific = await makeFunction(server.ctx, vendor, { specificAppId: otherApp.id });
    // a stale installation row (e.g. written before the function became specific to the other app)
    await server.ctx.db
      .insert(schema.appFunctions)
      .values({ vendorId: vendor.id, appId: app.id, functionId: specific.id });
    expect(await functionTools.list(server.ctx, app)).toEqual([]);
    const ctxFor = { ctx: server.ctx, app, signal: new AbortController().signal, emit: () => {} };
    const conversation = (
      await server.ctx.db
        .insert(schema.conversations)
        .values({
          vendorId: vendor.id,
          appId: app.id,
          token: uniq('tok_tok_tok_tok_'),
          channel: 'management',
        })
        .returning()
    )[0]!;
    expect(
      await functionTools.execute(
        { id: 'c1', name: specific.functionKey, arguments: {} },
        { ...ctxFor, conversation },
      ),
    ).toEqual({ result: { error: `Unknown function '${specific.functionKey}'` }, status: -1 });
  });

  it('turns argument schemas into tool parameters', () => {
    expect(toolParameters(null)).toEqual({ type: 'object', properties: {} });
    expect(toolParameters({ type: 'string' })).toEqual({ type: 'object', properties: {} });
    expect(toolParameters({ properties: { a: { type: 'string' } } })).toEqual({
      type: 'object',
      properties: { a: { type: 'string' } },
    });
  });
});
