/**
 * Limits inside a reply and fair sharing of the Lua pool (docs/adr/0021-limits-inside-a-reply-and-fair-pool.md):
 * every provider call of a reply is admitted against the plan and the reply's caps before the provider is
 * asked; one vendor's silicon replies waiting on a slow model leave another vendor a worker; a silicon run
 * that only waits on the host ends at its wall time.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../platform/config';
import {
  Client,
  createTestServer,
  makeUser,
  signedInVendor,
  type TestServer,
  uniq,
} from '../../test/harness';
import type { ConversationRow } from '../conversations/repo';
import { listMessages } from '../conversations/repo';
import { closeSiliconPools, siliconPool } from '../functions/sandbox';
import type { ChatModel, ChatRequest, ChatStreamEvent } from '../models/providers/types';
import type { VendorRow } from '../vendors/repo';
import { abortPromise } from './stream';
import {
  call,
  FakeTools,
  finish,
  ModelChoice,
  makeChatApp,
  makeConversation,
  makeVendorModel,
  RecordingRelay,
  ToolChoice,
  text,
} from './testing';
import { functionTools } from './tools';

/** Every request answers its turn ("ok" with 10 + 5 tokens unless given one); after `close()` it waits for `open()` first. */
class CountingModel implements ChatModel {
  calls = 0;
  /** Requests waiting for the gate. */
  pending = 0;
  private gate: Promise<void> | null = null;
  private release = () => {};

  constructor(private readonly turn: () => ChatStreamEvent[] = () => [text('ok'), finish()]) {}

  close(): void {
    this.gate = new Promise((resolve) => {
      this.release = resolve;
    });
  }

  open(): void {
    this.gate = null;
    this.release();
  }

  async *stream(request: ChatRequest): AsyncIterable<ChatStreamEvent> {
    this.calls += 1;
    if (this.gate) {
      this.pending += 1;
      const aborted = abortPromise(request.signal!);
      try {
        await Promise.race([this.gate, aborted.promise]);
      } finally {
        aborted.dispose();
        this.pending -= 1;
      }
    }
    yield* this.turn();
  }
}

let server: TestServer;
let admin: Client;
const models = new ModelChoice();
const tools = new ToolChoice(functionTools);
let defaultConfig: Config;

beforeAll(async () => {
  server = await createTestServer({
    relay: new RecordingRelay(),
    engine: { resolveModel: models.resolve, tools },
  });
  defaultConfig = { ...server.ctx.config };
  const su = await makeUser(server.ctx, { isSu: true });
  admin = await Client.signedIn(server.app, su.email, su.password);
});
afterEach(() => {
  models.use();
  tools.use(functionTools);
  Object.assign(server.ctx.config, defaultConfig);
});
afterAll(async () => {
  await server?.close();
  await closeSiliconPools();
});

function answering(model: ChatModel): void {
  models.use(model);
}

async function vendorOnPlan(limits: Record<string, number | null> | null) {
  const { vendor, client: owner } = await signedInVendor(server);
  if (limits) {
    const plan = await admin.post('/v1/admin/plans', {
      name: uniq('Plan '),
      price_minor: 100,
      currency: 'CHF',
      interval: 'month',
      limits,
    });
    expect(plan.statusCode, plan.body).toBe(201);
    const assigned = await admin.post(`/v1/admin/vendors/${vendor.id}/subscriptions`, {
      plan_id: plan.json().data.id,
    });
    expect(assigned.statusCode, assigned.body).toBe(201);
  }
  const usage = async () =>
    (await owner.get(`/v1/vendors/${vendor.id}/billing/subscription_limits`)).json().data.limits;
  return { vendor, owner, usage };
}

async function appOf(vendor: VendorRow, type: string, parameters: Record<string, unknown>) {
  const model = await makeVendorModel(server.ctx, vendor);
  const app = await makeChatApp(server.ctx, vendor, { type, parameters, model });
  const conversation = await makeConversation(server.ctx, app);
  return { app, conversation };
}

const stored = async (c: ConversationRow) =>
  (await listMessages(server.ctx.db, c.vendorId, c.id)).map((m) => [m.role, m.message]);

describe('limits inside a reply', () => {
  it("stops a silicon script's 2,000 model calls at the plan's tokens", async () => {
    const model = new CountingModel();
    answering(model);
    const { vendor, owner, usage } = await vendorOnPlan({ requests: null, tokens: 40 });
    const { conversation } = await appOf(vendor, 'silicon', {
      silicon: 'function on_message(ctx) for i = 1, 2000 do llm.complete("x") end return "done" end',
    });

    const res = await owner.post(`/v1/conversations/${conversation.token}`, { content: 'go' });
    expect(res.statusCode, res.body).toBe(200);
    const last = (await stored(conversation)).at(-1)!;
    expect(last[0]).toBe('error');
    expect(last[1]).toMatch(/The plan's 40 tokens for this period are used up/);
    // 15 tokens a call: admitted while fewer than 40 were used, so the limit's worth and one more.
    expect(model.calls).toBeLessThanOrEqual(Math.ceil(40 / 15) + 1);
    const tokens = (await usage()).tokens;
    expect(tokens.used).toBe(model.calls * 15);
    expect(tokens.used).toBeLessThan(40 + 15);
    // The next send is refused before any provider call.
    const calls = model.calls;
    expect(
      (await owner.post(`/v1/conversations/${conversation.token}`, { content: 'again' })).statusCode,
    ).toBe(402);
    expect(model.calls).toBe(calls);
  });

  it('a call past the requests is an error pcall catches; each call after the first is a request', async () => {
    const model = new CountingModel();
    answering(model);
    const { vendor, owner, usage } = await vendorOnPlan({ requests: 3, tokens: null });
    const { conversation } = await appOf(vendor, 'silicon', {
      silicon: `function on_message(ctx)
  for i = 1, 100 do
    local ok, err = pcall(llm.complete, "x")
    if not ok then return i .. ": " .. err end
  end
  return "never refused"
end`,
    });

    expect((await owner.post(`/v1/conversations/${conversation.token}`, { content: 'go' })).statusCode).toBe(
      200,
    );
    const last = (await stored(conversation)).at(-1)!;
    expect(last[0]).toBe('assistant');
    expect(last[1]).toMatch(/^4: The plan's 3 requests for this period are used up/);
    expect(model.calls).toBe(3);
    expect((await usage()).requests).toMatchObject({ limit: 3, used: 3 });
  });

  it("stops a chatbot's tool rounds at the reply's cap on provider calls", async () => {
    server.ctx.config.REPLY_MAX_PROVIDER_CALLS = 3;
    let round = 0;
    const model = new CountingModel(() => [call(`c${++round}`, 'again'), finish()]);
    answering(model);
    const again = new FakeTools(
      [{ name: 'again', description: 'again', parameters: { type: 'object' } }],
      () => ({
        result: 'once more',
        status: 1,
      }),
    );
    tools.use(again);
    const { vendor, owner } = await vendorOnPlan(null);
    const { conversation } = await appOf(vendor, 'chatbot', {});

    expect((await owner.post(`/v1/conversations/${conversation.token}`, { content: 'go' })).statusCode).toBe(
      200,
    );
    expect(model.calls).toBe(3);
    expect(again.calls).toHaveLength(3);
    expect((await stored(conversation)).at(-1)).toEqual([
      'error',
      'The reply reached its limit of 3 model calls and was stopped.',
    ]);
  });

  it("stops a silicon script at the reply's cap on tokens", async () => {
    server.ctx.config.REPLY_MAX_TOKENS = 40;
    const model = new CountingModel();
    answering(model);
    const { vendor, owner } = await vendorOnPlan(null);
    const { conversation } = await appOf(vendor, 'silicon', {
      silicon: 'function on_message(ctx) while true do llm.complete("x") end end',
    });

    expect((await owner.post(`/v1/conversations/${conversation.token}`, { content: 'go' })).statusCode).toBe(
      200,
    );
    expect(model.calls).toBe(3);
    expect((await stored(conversation)).at(-1)).toEqual([
      'error',
      'Line 1: The reply reached its limit of 40 tokens and was stopped.',
    ]);
  });
});

describe('sharing the Lua pool', () => {
  it("another vendor's function build completes while one vendor's silicon replies wait on a slow model", async () => {
    const slow = new CountingModel();
    slow.close();
    answering(slow);
    const noisy = await vendorOnPlan(null);
    const replies = await Promise.all(
      [1, 2, 3].map(() =>
        appOf(noisy.vendor, 'silicon', {
          silicon: 'function on_message(ctx) for i = 1, 3 do llm.complete("x") end return "late" end',
        }),
      ),
    );
    const running = replies.map(({ app, conversation }) =>
      server.ctx.completion.start(server.ctx, { app, conversation, content: 'go' }),
    );
    // One run waits on the model and holds a worker; the others wait for the pool.
    while (!(slow.pending === 1 && siliconPool().stats().queued === 2)) {
      await new Promise((resolve) => setImmediate(resolve));
    }

    const quiet = await vendorOnPlan(null);
    const fn = await quiet.owner.post(`/v1/vendors/${quiet.vendor.id}/functions`, {
      name: 'Quick',
      function_key: uniq('quick_'),
    });
    expect(fn.statusCode, fn.body).toBe(201);
    const build = await quiet.owner.post(
      `/v1/vendors/${quiet.vendor.id}/functions/${fn.json().data.id}/build`,
      {
        code: 'function run() return 42 end',
      },
    );
    expect(build.json().data).toMatchObject({ status: 1, result: 42 });
    // The answer came while the noisy vendor's runs were all still blocked or waiting.
    expect(slow.pending).toBe(1);
    expect(siliconPool().stats().queued).toBe(2);

    slow.open();
    await Promise.all(running);
    for (const { conversation } of replies)
      expect((await stored(conversation)).at(-1)).toEqual(['assistant', 'late']);
  });

  it('stops a silicon run that only waits on the host at its wall time', async () => {
    server.ctx.config.SILICON_RUN_WALL_MS = 300;
    const slow = new CountingModel();
    slow.close();
    answering(slow);
    const { vendor } = await vendorOnPlan(null);
    const { app, conversation } = await appOf(vendor, 'silicon', {
      silicon: 'function on_message(ctx) return llm.complete("x") end',
    });

    await server.ctx.completion.start(server.ctx, { app, conversation, content: 'go' });
    expect((await stored(conversation)).at(-1)).toEqual([
      'error',
      'wall-clock limit exceeded (300 ms, waits on host calls included)',
    ]);
    // The model call it was waiting on ended with the run.
    expect(slow.calls).toBe(1);
    expect(slow.pending).toBe(0);
  });
});
