import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type Client,
  createListeningTestServer,
  type ListeningTestServer,
  signedInVendor,
} from '../../test/harness';
import { RelayClient } from '../../test/relay-client';
import type { AppRow } from '../completion/repo';
import {
  finish,
  ModelChoice,
  makeChatApp,
  makeConversation,
  makeVendorModel,
  ScriptedModel,
  type Step,
  text,
} from '../completion/testing';
import type { VendorRow } from '../vendors/repo';
import { NOT_JOINED, UNKNOWN_CONVERSATION } from './relay';
import { readState } from './repo';

let server: ListeningTestServer;
let vendor: VendorRow;
let app: AppRow;
let http: Client;
const sockets: RelayClient[] = [];
const models = new ModelChoice();

beforeAll(async () => {
  server = await createListeningTestServer({ engine: { resolveModel: models.resolve } });
  ({ vendor, client: http } = await signedInVendor(server, 'member'));
  const model = await makeVendorModel(server.ctx, vendor);
  app = await makeChatApp(server.ctx, vendor, { model });
});
afterEach(() => {
  for (const s of sockets.splice(0)) s.close();
});
afterAll(async () => {
  await server?.close();
});

async function connect(): Promise<RelayClient> {
  const c = await RelayClient.connect(server.url, http.relayAuth());
  sockets.push(c);
  return c;
}

async function joined(token: string): Promise<RelayClient> {
  const c = await connect();
  expect(await c.ask('join', token)).toEqual({ ok: true });
  return c;
}

function useModel(turns: Step[][]) {
  models.use(() => new ScriptedModel(turns));
}

const send = (token: string, content: string, poster?: string) =>
  http.request({
    method: 'POST',
    url: `/v1/conversations/${token}`,
    payload: { content },
    headers: poster ? { 'x-relay-socket': poster } : {},
  });

const withoutDebug = (c: RelayClient, from = 0) =>
  c
    .messages()
    .slice(from)
    .filter((m) => m.type !== 'debug');

describe('relay: completion events', () => {
  it('counts the sockets in a conversation room as they join and leave', async () => {
    const conversation = await makeConversation(server.ctx, app);
    expect(await server.ctx.relay.roomSize(conversation.token)).toBe(0);
    const a = await joined(conversation.token);
    await joined(conversation.token);
    expect(await server.ctx.relay.roomSize(conversation.token)).toBe(2);
    a.close();
    await expect.poll(() => server.ctx.relay.roomSize(conversation.token)).toBe(1);
  });

  it('delivers a completion to the poster in order, with input_async false and no user_input', async () => {
    useModel([[text('Hel'), text('lo'), finish()]]);
    const conversation = await makeConversation(server.ctx, app);
    const a = await joined(conversation.token);
    const res = await send(conversation.token, 'Hi', a.id);
    expect(res.statusCode).toBe(200);
    await a.waitForMessage('completion.ended');
    expect(withoutDebug(a)).toEqual([
      { type: 'completion.started', data: { input_async: false } },
      { type: 'completion_stream', data: { chunk: 'Hel' } },
      { type: 'completion_stream', data: { chunk: 'lo' } },
      { type: 'completion.finished', data: { input_async: false } },
      { type: 'completion.ended', data: {} },
    ]);
    const debug = Object.assign(
      {},
      ...a
        .messages()
        .filter((m) => m.type === 'debug')
        .map((m) => m.data),
    );
    expect(debug).toMatchObject({ app_type: 'chatbot', tokens_prompt: 10, tokens_completion: 5 });
  });

  it('delivers every event in order to every client of the room, and nothing to other rooms', async () => {
    useModel([[text('one'), text('two'), text('three'), finish()]]);
    const conversation = await makeConversation(server.ctx, app);
    const elsewhere = await makeConversation(server.ctx, app);
    const poster = await joined(conversation.token);
    const watcher = await joined(conversation.token);
    const outsider = await joined(elsewhere.token);
    expect((await send(conversation.token, 'Count', poster.id)).statusCode).toBe(200);
    await poster.waitForMessage('completion.ended');
    await watcher.waitForMessage('completion.ended');

    const stream = [
      { type: 'completion_stream', data: { chunk: 'one' } },
      { type: 'completion_stream', data: { chunk: 'two' } },
      { type: 'completion_stream', data: { chunk: 'three' } },
    ];
    expect(withoutDebug(poster)).toEqual([
      { type: 'completion.started', data: { input_async: false } },
      ...stream,
      { type: 'completion.finished', data: { input_async: false } },
      { type: 'completion.ended', data: {} },
    ]);
    expect(withoutDebug(watcher)).toEqual([
      { type: 'completion.started', data: { input_async: true } },
      {
        type: 'user_input',
        data: { message: expect.objectContaining({ role: 'user', creator: 'user', message: 'Count' }) },
      },
      ...stream,
      { type: 'completion.finished', data: { input_async: true } },
      { type: 'completion.ended', data: {} },
    ]);
    expect(poster.messages().filter((m) => m.type === 'debug')).toEqual(
      watcher.messages().filter((m) => m.type === 'debug'),
    );

    // The outsider's first message is from its own conversation: it saw nothing of the other one.
    useModel([[text('mine'), finish()]]);
    expect((await send(elsewhere.token, 'Mine')).statusCode).toBe(200);
    await outsider.waitForMessage('completion.ended');
    expect(withoutDebug(outsider)).toEqual([
      { type: 'completion.started', data: { input_async: true } },
      { type: 'user_input', data: { message: expect.objectContaining({ message: 'Mine' }) } },
      { type: 'completion_stream', data: { chunk: 'mine' } },
      { type: 'completion.finished', data: { input_async: true } },
      { type: 'completion.ended', data: {} },
    ]);
  });

  it('gives input_async true to all when no poster header is sent, or when the poster is in another room', async () => {
    const conversation = await makeConversation(server.ctx, app);
    const other = await makeConversation(server.ctx, app);
    const a = await joined(conversation.token);
    const stranger = await joined(other.token);
    for (const poster of [undefined, stranger.id]) {
      useModel([[text('x'), finish()]]);
      const from = a.received.length;
      expect((await send(conversation.token, 'Hi', poster)).statusCode).toBe(200);
      await a.waitForMessage('completion.ended', { from });
      const flags = withoutDebug(a, from)
        .filter(
          (m) =>
            m.type === 'completion.started' || m.type === 'completion.finished' || m.type === 'user_input',
        )
        .map((m) => (m.type === 'user_input' ? 'user_input' : m.data));
      expect(flags).toEqual([{ input_async: true }, 'user_input', { input_async: true }]);
    }
    // The stranger, posting into a conversation it has not joined, got none of its events: the first
    // thing it receives is its own conversation's reply.
    useModel([[text('own'), finish()]]);
    await send(other.token, 'Own', stranger.id);
    await stranger.waitForMessage('completion.ended');
    expect(withoutDebug(stranger).map((m) => m.type)).toEqual([
      'completion.started',
      'completion_stream',
      'completion.finished',
      'completion.ended',
    ]);
  });

  it('leaves the previous room when joining another conversation', async () => {
    const first = await makeConversation(server.ctx, app);
    const second = await makeConversation(server.ctx, app);
    const c = await joined(first.token);
    expect(await c.ask('join', second.token)).toEqual({ ok: true });
    useModel([[text('first'), finish()]]);
    await send(first.token, 'to first');
    useModel([[text('second'), finish()]]);
    await send(second.token, 'to second');
    await c.waitForMessage('completion.ended');
    expect(c.messages().find((m) => m.type === 'completion_stream')).toEqual({
      type: 'completion_stream',
      data: { chunk: 'second' },
    });
    expect(c.messages().filter((m) => m.type === 'completion.ended')).toHaveLength(1);
  });

  it('answers state_err to a join with an unknown or malformed token, and joins nothing', async () => {
    const c = await connect();
    for (const token of ['A'.repeat(32), 42, '']) {
      expect(await c.ask('join', token)).toEqual({ ok: false, error: UNKNOWN_CONVERSATION });
    }
    expect(await c.ask('get')).toEqual({ ok: false, error: NOT_JOINED });
    const errors = c.received.filter((r) => r.event === 'state_err').map((r) => r.data);
    expect(errors).toEqual([
      { error: UNKNOWN_CONVERSATION },
      { error: UNKNOWN_CONVERSATION },
      { error: UNKNOWN_CONVERSATION },
      { error: NOT_JOINED },
    ]);
  });
});

describe('relay: texts in the console locale', () => {
  it('writes state_err in the locale the handshake names, English without one', async () => {
    const german = await RelayClient.connect(server.url, { ...http.relayAuth(), locale: 'de_CH' });
    const french = await RelayClient.connect(server.url, { ...http.relayAuth(), locale: 'fr_FR' });
    sockets.push(german, french);
    expect(await german.ask('get')).toEqual({
      ok: false,
      error: 'Treten Sie zuerst einer Unterhaltung bei.',
    });
    expect(await french.ask('join', 'A'.repeat(32))).toEqual({ ok: false, error: 'Conversation inconnue' });
    const conversation = await makeConversation(server.ctx, app);
    expect(await french.ask('join', conversation.token)).toEqual({ ok: true });
    expect(await french.ask('set', [1])).toEqual({ ok: false, error: 'L’état doit être un objet JSON.' });
    expect(await french.ask('patchState', [{ op: 'move', path: '/x' }])).toEqual({
      ok: false,
      error: 'Les patchs doivent être un tableau d’opérations JSON Patch (RFC 6902).',
    });
  });
});

describe('relay: conversation state', () => {
  it('gets, sets and patches the state: the sender gets get/set/patch, the room state_change; durable in the DB', async () => {
    const conversation = await makeConversation(server.ctx, app);
    const a = await joined(conversation.token);
    const b = await joined(conversation.token);

    expect(await a.ask('get')).toEqual({ ok: true });
    expect(await a.ask('set', { count: 1, items: ['x'] })).toEqual({ ok: true });
    expect(
      await a.ask('patchState', [
        { op: 'add', path: '/items/-', value: 'y' },
        { op: 'replace', path: '/count', value: 2 },
      ]),
    ).toEqual({ ok: true });
    await b.waitFor((r) => r.event === 'state_change', { count: 2 });

    expect(a.received).toEqual([
      { event: 'get', data: {} },
      { event: 'set', data: { count: 1, items: ['x'] } },
      { event: 'patch', data: { count: 2, items: ['x', 'y'] } },
    ]);
    expect(b.received).toEqual([
      { event: 'state_change', data: { count: 1, items: ['x'] } },
      { event: 'state_change', data: { count: 2, items: ['x', 'y'] } },
    ]);
    const stored = await readState(server.ctx.db, vendor.id, conversation.id);
    expect(stored).toEqual({ state: { count: 2, items: ['x', 'y'] }, stateVersion: 2 });
    const res = await http.get(`/v1/conversations/${conversation.token}`);
    expect(res.json().conversation.state).toEqual({ count: 2, items: ['x', 'y'] });
  });

  it('rejects invalid patches and non-object states with state_err to the sender only, changing nothing', async () => {
    const conversation = await makeConversation(server.ctx, app);
    const a = await joined(conversation.token);
    const b = await joined(conversation.token);
    expect(await a.ask('set', { keep: true, list: [1] })).toEqual({ ok: true });
    await b.waitFor((r) => r.event === 'state_change');
    const bBefore = b.received.length;

    const badPatches: unknown[] = [
      { op: 'add', path: '/x', value: 1 }, // not an array
      [{ op: 'frobnicate', path: '/x' }],
      [{ op: 'add', value: 1 }],
      [{ op: 'remove', path: '/missing' }],
      [
        { op: 'add', path: '/a', value: 1 },
        { op: 'test', path: '/keep', value: false },
      ], // atomic: nothing applied
      [{ op: 'replace', path: '', value: [1, 2] }], // result is not an object
      [{ op: 'add', path: '/big', value: 'x'.repeat(256 * 1024) }],
      [{ op: 'add', path: '/__proto__/polluted', value: 1 }],
    ];
    for (const patch of badPatches) {
      const ack = await a.ask('patchState', patch);
      expect(ack.ok, JSON.stringify(patch).slice(0, 80)).toBe(false);
    }
    for (const state of [5, 'text', null, [1, 2], { big: 'x'.repeat(256 * 1024) }]) {
      const ack = await a.ask('set', state);
      expect(ack.ok, JSON.stringify(state)?.slice(0, 40)).toBe(false);
    }
    const errors = a.received.filter((r) => r.event === 'state_err');
    expect(errors).toHaveLength(badPatches.length + 5);
    expect(errors[0]!.data).toEqual({
      error: 'Patches must be an array of JSON Patch (RFC 6902) operations.',
    });
    expect(errors.at(-1)!.data).toEqual({ error: 'The state must not exceed 64 KiB.' });
    expect(errors.at(-5)!.data).toEqual({ error: 'The state must be a JSON object.' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();

    expect(await readState(server.ctx.db, vendor.id, conversation.id)).toEqual({
      state: { keep: true, list: [1] },
      stateVersion: 1,
    });
    // b heard nothing of the failures: its next event is the next real change.
    expect(await a.ask('patchState', [{ op: 'add', path: '/list/-', value: 2 }])).toEqual({ ok: true });
    await b.waitFor((r) => r.event === 'state_change', { from: bBefore });
    expect(b.received.slice(bBefore)).toEqual([
      { event: 'state_change', data: { keep: true, list: [1, 2] } },
    ]);
    expect(b.received.some((r) => r.event === 'state_err')).toBe(false);
  });

  it('loses no update when two clients patch concurrently', async () => {
    const conversation = await makeConversation(server.ctx, app);
    const a = await joined(conversation.token);
    const b = await joined(conversation.token);
    const acks = await Promise.all(
      Array.from({ length: 10 }, (_, i) => [
        a.ask('patchState', [{ op: 'add', path: `/a${i}`, value: i }]),
        b.ask('patchState', [{ op: 'add', path: `/b${i}`, value: i }]),
      ]).flat(),
    );
    expect(acks.every((x) => x.ok)).toBe(true);
    const stored = await readState(server.ctx.db, vendor.id, conversation.id);
    expect(Object.keys(stored!.state as object).sort()).toEqual(
      Array.from({ length: 10 }, (_, i) => [`a${i}`, `b${i}`])
        .flat()
        .sort(),
    );
    expect(stored!.stateVersion).toBe(20);
  });
});
