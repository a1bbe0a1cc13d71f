/**
 * SIGTERM during replies (ADR 0055): new work is refused at once with 503 and
 * Retry-After, `/readyz` answers 503, a reply that ends within `SHUTDOWN_DRAIN_MS` is stored whole, one
 * that does not is stopped and stored as stopped, and the process exits 0 within the drain + 5 s.
 */
import { type FakeOpenAI, startFakeOpenAI } from '@llmor/server/test/fakes/index';
import { RelayClient } from '@llmor/server/test/relay-client';
import { afterAll, describe, expect, it } from 'vitest';
import { signedClient } from '../harness';
import {
  installFakeChatbot,
  killServerProcesses,
  newDataDir,
  openConversation,
  startServerProcess,
  storedMessages,
} from './server-process';

/** Short enough for a test, long enough that the released reply ends within it on a loaded machine. */
const DRAIN_MS = 8_000;

let fake: FakeOpenAI | undefined;

afterAll(async () => {
  await killServerProcesses();
  await fake?.close();
});

describe('SIGTERM during replies', () => {
  it('refuses new work, finishes the reply that ends within the drain, stores the other as stopped, exits 0', async () => {
    const dataDir = newDataDir();
    fake = await startFakeOpenAI();
    const env = { DATA_DIR: dataDir, SHUTDOWN_DRAIN_MS: String(DRAIN_MS) };
    const first = await startServerProcess(env);
    const api = await signedClient(first.url, 'demo');
    const { appId } = await installFakeChatbot(api, fake.baseUrl);
    const short = await openConversation(api, appId);
    const long = await openConversation(api, appId);
    const other = await openConversation(api, appId);

    // The short reply ends when the test lets it; the long one never does.
    let finishShort!: () => void;
    fake.chat({
      kind: 'reply',
      text: ['The whole ', 'answer.'],
      until: new Promise<void>((r) => (finishShort = r)),
    });
    fake.chat({ kind: 'reply', text: ['Half an ans'], stall: true });
    const tab = await RelayClient.connect(first.url, api.relayAuth());
    expect(await tab.ask('join', long)).toEqual({ ok: true });
    const shortSent = api('POST', `/v1/conversations/${short}`, { content: 'Short one' });
    await expect.poll(() => fake!.requests.length).toBe(1);
    const longSent = api('POST', `/v1/conversations/${long}`, { content: 'Long one' });
    // The long reply's first text reached the server: that much is kept when it is stopped.
    await tab.waitFor(
      (r) => r.event === 'message' && (r.data as { type: string }).type === 'completion_stream',
      { timeoutMs: 15_000 },
    );

    const newSend = () =>
      fetch(`${first.url}/v1/conversations/${other}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ content: 'During the stop' }),
      });
    // Before the stop the unsigned send is refused for what it is.
    expect((await newSend()).status).toBe(401);

    const signalledAt = Date.now();
    first.signal('SIGTERM');
    await expect.poll(async () => (await newSend()).status).toBe(503);
    const answer = await newSend();
    expect(answer.status).toBe(503);
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await answer.json()).toEqual({
      name: 'ServiceUnavailable',
      message: 'The server is restarting. Please try again shortly.',
    });
    expect((await fetch(`${first.url}/readyz`)).status).toBe(503);
    expect((await fetch(`${first.url}/healthz`)).status).toBe(200);

    // The short reply ends within the drain: stored whole, its send answered.
    finishShort();
    const shortAnswer: { data: { role: string; message: string | null }[] } = await shortSent;
    expect(shortAnswer.data.map((m) => [m.role, m.message])).toEqual([
      ['user', 'Short one'],
      ['assistant', 'The whole answer.'],
    ]);
    await longSent.catch(() => {});

    // Exit 0: the server's own deadline (drain + 5 s) would have exited 1.
    const code = await Promise.race([
      first.exited,
      new Promise((r) => setTimeout(() => r('still running'), DRAIN_MS + 15_000)),
    ]);
    console.log(`exited ${code} ${Date.now() - signalledAt} ms after SIGTERM (drain ${DRAIN_MS} ms)`);
    expect(code, first.output()).toBe(0);
    expect(first.output()).not.toMatch(/AVV_ERR|FST_ERR/);
    tab.socket.disconnect();

    // Everything was stored: a restart on the same data shows both replies.
    const second = await startServerProcess(env);
    const api2 = await signedClient(second.url, 'demo');
    expect((await storedMessages(api2, short)).slice(-2)).toEqual([
      ['user', 'Short one'],
      ['assistant', 'The whole answer.'],
    ]);
    expect((await storedMessages(api2, long)).slice(-3)).toEqual([
      ['user', 'Long one'],
      ['assistant', 'Half an ans'],
      ['error', 'The server is shutting down; the reply was stopped.'],
    ]);
    expect((await storedMessages(api2, other)).filter(([role]) => role === 'user')).toEqual([]);
    fake.expectNoFailures();
  }, 180_000);
});
