import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  createListeningTestServer,
  type ListeningTestServer,
  makeUser,
  makeVendor,
} from '../../test/harness';
import { RelayClient } from '../../test/relay-client';
import type { AppRow } from '../completion/repo';
import {
  finish,
  makeChatApp,
  makeConversation,
  makeVendorModel,
  ScriptedModel,
  text,
} from '../completion/testing';

const DATABASE_URL = process.env.DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;

/** Two app instances sharing one PostgreSQL database and one Redis: rooms span both. */
describe.runIf(Boolean(DATABASE_URL && REDIS_URL))('relay across two instances (PostgreSQL + Redis)', () => {
  let a: ListeningTestServer;
  let b: ListeningTestServer;
  let httpB: Client;
  let app: AppRow;
  const sockets: RelayClient[] = [];

  beforeAll(async () => {
    a = await createListeningTestServer({ env: { REDIS_URL: REDIS_URL! } });
    b = await createListeningTestServer({ databaseUrl: a.databaseUrl, env: { REDIS_URL: REDIS_URL! } });
    const vendor = await makeVendor(a.ctx);
    const user = await makeUser(a.ctx, { vendors: [vendor] });
    httpB = await Client.signedIn(b.app, user.email, user.password);
    httpB.vendorKey = vendor.key;
    app = await makeChatApp(a.ctx, vendor, { model: await makeVendorModel(a.ctx, vendor) });
  });
  afterEach(() => {
    for (const s of sockets.splice(0)) s.close();
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  async function joined(server: ListeningTestServer, token: string) {
    const c = await RelayClient.connect(server.url, httpB.relayAuth());
    sockets.push(c);
    expect(await c.ask('join', token)).toEqual({ ok: true });
    return c;
  }

  it('delivers a completion run on instance B to clients on A, in order, input_async per poster', async () => {
    const conversation = await makeConversation(a.ctx, app);
    const poster = await joined(a, conversation.token);
    const watcherA = await joined(a, conversation.token);
    const watcherB = await joined(b, conversation.token);
    b.ctx.completion.resolveModel = () => new ScriptedModel([[text('across '), text('instances'), finish()]]);

    const res = await httpB.request({
      method: 'POST',
      url: `/v1/conversations/${conversation.token}`,
      payload: { content: 'Hello from B' },
      headers: { 'x-relay-socket': poster.id },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((m: { message: string }) => m.message)).toEqual([
      'Hello from B',
      'across instances',
    ]);

    const stream = [
      { type: 'completion_stream', data: { chunk: 'across ' } },
      { type: 'completion_stream', data: { chunk: 'instances' } },
    ];
    await poster.waitForMessage('completion.ended');
    expect(poster.messages().filter((m) => m.type !== 'debug')).toEqual([
      { type: 'completion.started', data: { input_async: false } },
      ...stream,
      { type: 'completion.finished', data: { input_async: false } },
      { type: 'completion.ended', data: {} },
    ]);
    for (const watcher of [watcherA, watcherB]) {
      await watcher.waitForMessage('completion.ended');
      expect(watcher.messages().filter((m) => m.type !== 'debug')).toEqual([
        { type: 'completion.started', data: { input_async: true } },
        { type: 'user_input', data: { message: expect.objectContaining({ message: 'Hello from B' }) } },
        ...stream,
        { type: 'completion.finished', data: { input_async: true } },
        { type: 'completion.ended', data: {} },
      ]);
    }
  });

  it('shares state changes across instances', async () => {
    const conversation = await makeConversation(a.ctx, app);
    const onA = await joined(a, conversation.token);
    const onB = await joined(b, conversation.token);
    expect(await onB.ask('set', { from: 'B' })).toEqual({ ok: true });
    await onA.waitFor((r) => r.event === 'state_change');
    expect(onA.received).toEqual([{ event: 'state_change', data: { from: 'B' } }]);
    expect(await onA.ask('patchState', [{ op: 'add', path: '/and', value: 'A' }])).toEqual({ ok: true });
    await onB.waitFor((r) => r.event === 'state_change', { count: 1 });
    expect(onB.received).toEqual([
      { event: 'set', data: { from: 'B' } },
      { event: 'state_change', data: { from: 'B', and: 'A' } },
    ]);
    expect(await onB.ask('get')).toEqual({ ok: true });
    expect(onB.received.at(-1)).toEqual({ event: 'get', data: { from: 'B', and: 'A' } });
  });
});
