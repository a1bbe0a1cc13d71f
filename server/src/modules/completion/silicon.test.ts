import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { schema } from '../../platform/db';
import {
  Client,
  createTestServer,
  makeFunction,
  makeUser,
  makeVendor,
  type TestServer,
} from '../../test/harness';
import { listMessages } from '../conversations/repo';
import { closeSiliconPools } from '../functions/sandbox';
import type { VendorRow } from '../vendors/repo';
import { NO_MODEL_TEXT } from './chat';
import { findVendorModel, type VendorModelRow } from './repo';
import { NO_SCRIPT_TEXT } from './silicon';
import { makeChatApp, makeConversation, RecordingRelay } from './testing';

let server: TestServer;
let vendor: VendorRow;
const relay = new RecordingRelay();
let demoModel: VendorModelRow;

beforeAll(async () => {
  server = await createTestServer({ relay });
  vendor = await makeVendor(server.ctx);
  const user = await makeUser(server.ctx, { vendors: [vendor] });
  const client = await Client.signedIn(server.app, user.email, user.password);
  const installed = await client.post(`/v1/vendors/${vendor.id}/avamodels/builtin-offline-demo/install`, {
    parameters: {},
  });
  expect(installed.statusCode).toBe(201);
  demoModel = (await findVendorModel(server.ctx.db, vendor.id, installed.json().data.id))!;
});
afterAll(async () => {
  await server?.close();
  await closeSiliconPools();
});
beforeEach(() => {
  relay.clear();
});

async function siliconApp(
  code: string | undefined,
  opts: { model?: boolean; parameters?: Record<string, unknown> } = {},
) {
  const app = await makeChatApp(server.ctx, vendor, {
    type: 'silicon',
    parameters: code === undefined ? {} : { silicon: code },
    model: opts.model === false ? null : demoModel,
  });
  const conversation = await makeConversation(server.ctx, app, { parameters: opts.parameters });
  const send = (content: string) => server.ctx.completion.start(server.ctx, { app, conversation, content });
  const stored = async () =>
    (await listMessages(server.ctx.db, vendor.id, conversation.id)).map((m) => [m.role, m.message]);
  const events = () => relay.of(conversation.token).filter((e) => e.type !== 'debug');
  const debug = () =>
    Object.assign(
      {},
      ...relay
        .of(conversation.token)
        .filter((e) => e.type === 'debug')
        .map((e) => e.data),
    );
  return { app, conversation, send, stored, events, debug };
}

describe('silicon apps', () => {
  it('answers with what on_message returns, streamed as a chunk and stored', async () => {
    const s = await siliconApp(
      `function on_message(ctx)
  return "Hi " .. ctx.message .. " (" .. #ctx.messages .. " messages, lang " .. ctx.parameters.lang .. ")"
end`,
      { parameters: { lang: 'de' } },
    );
    await s.send('there');
    const reply = 'Hi there (1 messages, lang de)';
    expect(await s.stored()).toEqual([
      ['user', 'there'],
      ['assistant', reply],
    ]);
    expect(s.events().map((e) => [e.type, e.data])).toEqual([
      ['completion.started', { input_async: true }],
      ['user_input', expect.anything()],
      ['completion_stream', { chunk: reply }],
      ['completion.finished', { input_async: true }],
      ['completion.ended', {}],
    ]);
    expect(s.debug()).toMatchObject({ app_type: 'silicon', silicon_status: 1 });
    await s.send('again');
    expect((await s.stored()).at(-1)).toEqual(['assistant', 'Hi again (3 messages, lang de)']);
  });

  it('passes the history and encodes a table reply as JSON; nil means no reply', async () => {
    const s = await siliconApp(`function on_message(ctx)
  if ctx.message == "quiet" then return nil end
  local roles = {}
  for i, m in ipairs(ctx.messages) do roles[i] = m.role .. ":" .. m.message end
  return { roles = roles }
end`);
    await s.send('one');
    await s.send('quiet');
    await s.send('two');
    expect(await s.stored()).toEqual([
      ['user', 'one'],
      ['assistant', JSON.stringify({ roles: ['user:one'] })],
      ['user', 'quiet'],
      ['user', 'two'],
      [
        'assistant',
        JSON.stringify({ roles: ['user:one', 'assistant:{"roles":["user:one"]}', 'user:quiet', 'user:two'] }),
      ],
    ]);
  });

  it('state.set / state.patch persist the conversation state and announce it; ctx.state has the current one', async () => {
    const s = await siliconApp(`function on_message(ctx)
  local n = (ctx.state.count or 0) + 1
  state.set({ count = n, last = ctx.message })
  local after = state.patch(json.array({ { op = "add", path = "/seen", value = true } }))
  return "count " .. n .. ", seen " .. tostring(after.seen)
end`);
    await s.send('a');
    await s.send('b');
    expect((await s.stored()).filter(([r]) => r === 'assistant')).toEqual([
      ['assistant', 'count 1, seen true'],
      ['assistant', 'count 2, seen true'],
    ]);
    const [row] = await server.ctx.db
      .select()
      .from(schema.conversations)
      .where(eq(schema.conversations.id, s.conversation.id));
    expect(row!.state).toEqual({ count: 2, last: 'b', seen: true });
    expect(relay.states.filter((e) => e.token === s.conversation.token).map((e) => e.state)).toEqual([
      { count: 1, last: 'a' },
      { count: 1, last: 'a', seen: true },
      { count: 2, last: 'b' },
      { count: 2, last: 'b', seen: true },
    ]);
  });

  it('relay.emit delivers custom events to the room; engine event types are reserved', async () => {
    const s = await siliconApp(`function on_message(ctx)
  relay.emit("weather", { city = "Bern", temp = 21 })
  local ok, err = pcall(relay.emit, "completion.ended", {})
  return err
end`);
    await s.send('go');
    const custom = s.events().filter((e) => e.type === 'weather');
    expect(custom.map((e) => e.data)).toEqual([{ city: 'Bern', temp: 21 }]);
    expect(s.events().filter((e) => e.type === 'completion.ended')).toHaveLength(1);
    expect((await s.stored()).at(-1)).toEqual(['assistant', "relay.emit: 'completion.ended' is reserved"]);
  });

  it('debug(key, value) sends a debug event; datastore.search of an unknown name is an error', async () => {
    const s = await siliconApp(`function on_message(ctx)
  debug("step", { n = 1 })
  local ok, err = pcall(datastore.search, "docs", "query", 3)
  return tostring(ok) .. ": " .. err
end`);
    await s.send('go');
    expect(s.debug()).toMatchObject({ step: { n: 1 } });
    expect((await s.stored()).at(-1)?.[1]).toMatch(/^false: .*this app has no datastore named 'docs'$/);
  });

  it('a script error becomes an error-role message with the line', async () => {
    const s = await siliconApp(`function on_message(ctx)
  local profile = nil
  return profile.name
end`);
    await s.send('hi');
    const [last] = (await s.stored()).slice(-1);
    expect(last![0]).toBe('error');
    expect(last![1]).toMatch(/^Line 3: attempt to index a nil value \(local 'profile'\)$/);
    expect(s.events().map((e) => e.type)).not.toContain('completion_stream');

    const syntax = await siliconApp('function on_message(ctx)\n  return "x" ..\nend');
    await syntax.send('hi');
    expect((await syntax.stored()).at(-1)![0]).toBe('error');
    expect((await syntax.stored()).at(-1)![1]).toMatch(/^Line 3: /);

    const missing = await siliconApp('function run() end');
    await missing.send('hi');
    expect((await missing.stored()).at(-1)).toEqual(['error', "function 'on_message' is not defined"]);

    const noScript = await siliconApp(undefined);
    await noScript.send('hi');
    expect((await noScript.stored()).at(-1)).toEqual(['error', NO_SCRIPT_TEXT]);
  });

  it('a runaway script is stopped by the time limit', async () => {
    const s = await siliconApp('function on_message(ctx)\n  while true do end\nend');
    await s.send('hi');
    const last = (await s.stored()).at(-1)!;
    expect(last[0]).toBe('error');
    expect(last[1]).toMatch(/time/i);
    expect(s.debug()).toMatchObject({ silicon_status: -3 });
  });

  it('llm.complete answers with the app’s completion model and records usage', async () => {
    const s = await siliconApp(`function on_message(ctx)
  local a = llm.complete({ prompt = "ping " .. ctx.message, system = "Be brief." })
  local b = llm.complete("plain")
  local c = llm.complete({ messages = ctx.messages })
  return a .. "|" .. b .. "|" .. c
end`);
    await s.send('hello');
    const reply = (await s.stored()).at(-1)!;
    expect(reply[0]).toBe('assistant');
    const [a, b, c] = (reply[1] as string).split('|');
    expect(a).toMatch(/^You said: ping hello\n/);
    expect(b).toMatch(/^You said: plain\n/);
    expect(c).toMatch(/^You said: hello\n/);
    const usage = await server.ctx.db
      .select()
      .from(schema.usageRecords)
      .where(eq(schema.usageRecords.conversationId, s.conversation.id));
    expect(usage).toHaveLength(3);
    expect(usage[0]).toMatchObject({ appId: s.app.id, vendorModelId: demoModel.id });
    expect(usage[0]!.tokensCompletion).toBeGreaterThan(0);
  });

  it('llm.complete without a completion model or with bad input is a Lua error', async () => {
    const s = await siliconApp(
      `function on_message(ctx)
  local ok, err = pcall(llm.complete, { messages = { { role = "robot", content = "x" } } })
  local ok2, err2 = pcall(llm.complete, {})
  return err .. " / " .. err2 .. " / " .. llm.complete("x")
end`,
      { model: false },
    );
    await s.send('hi');
    const last = (await s.stored()).at(-1)!;
    expect(last).toEqual(['error', `Line 4: ${NO_MODEL_TEXT}`]);

    const withModel = await siliconApp(`function on_message(ctx)
  local ok, err = pcall(llm.complete, { messages = { { role = "robot", content = "x" } } })
  local ok2, err2 = pcall(llm.complete, {})
  return err .. " / " .. err2
end`);
    await withModel.send('hi');
    expect((await withModel.stored()).at(-1)).toEqual([
      'assistant',
      'llm.complete: messages[1].role must be system, user or assistant / llm.complete: give a prompt or messages',
    ]);
  });

  it('installed functions are callable as functions.<key>(args) with the app’s config; each call is a stored run', async () => {
    const fn = await makeFunction(server.ctx, vendor, {
      functionKey: 'multiply',
      code: `function run(args, config)
  if args.fail then error("asked to fail") end
  return { product = args.a * args.b * (config.scale or 1) }
end`,
    });
    const s = await siliconApp(`function on_message(ctx)
  local r = functions.multiply({ a = 6, b = 7 })
  local ok, err = pcall(functions.multiply, { fail = true })
  return r.product .. " / " .. err
end`);
    await server.ctx.db
      .insert(schema.appFunctions)
      .values({ vendorId: vendor.id, appId: s.app.id, functionId: fn.id, config: { scale: 10 } });
    await s.send('go');
    expect((await s.stored()).at(-1)).toEqual([
      'assistant',
      '420 / functions.multiply: Line 2: asked to fail',
    ]);
    const runs = await server.ctx.db
      .select()
      .from(schema.functionRuns)
      .where(eq(schema.functionRuns.functionId, fn.id));
    expect(runs.map((r) => [r.status, r.conversationId, r.config])).toEqual([
      [1, s.conversation.id, { scale: 10 }],
      [-1, s.conversation.id, { scale: 10 }],
    ]);
    const calls = s.events().filter((e) => e.type.startsWith('function_call.'));
    expect(calls.map((e) => [e.type, (e.data as { status?: number }).status])).toEqual([
      ['function_call.begin', undefined],
      ['function_call.end', 1],
      ['function_call.begin', undefined],
      ['function_call.end', -1],
    ]);
    expect(calls[1]!.data).toMatchObject({ name: 'multiply', result: { product: 420 } });
  });
});
