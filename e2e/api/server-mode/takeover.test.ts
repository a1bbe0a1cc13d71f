/**
 * An instance dies mid-reply (kill -9): another instance on the same database and Redis takes the
 * conversation over within 5 s, once the dead one's lease lapsed unrenewed, and the interrupted reply's
 * notice is stored once (ADR 0055).
 */
import { randomBytes } from 'node:crypto';
import { type FakeOpenAI, startFakeOpenAI } from '@llmor/server/test/fakes/index';
import { afterAll, describe, expect, it } from 'vitest';
import { signedClient } from '../../harness';
import {
  crash,
  freshDatabase,
  installFakeChatbot,
  killServerProcesses,
  openConversation,
  startServerProcess,
  storedMessages,
} from '../server-process';

const DATABASE_URL = process.env.DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;
/** What the test waits for the takeover at most; the lease lets it happen within 5 s. */
const TAKEOVER_DEADLINE_MS = 10_000;

describe.runIf(Boolean(DATABASE_URL && REDIS_URL))('kill -9 of the instance running a reply', () => {
  let database: Awaited<ReturnType<typeof freshDatabase>> | undefined;
  let fake: FakeOpenAI | undefined;

  afterAll(async () => {
    await killServerProcesses();
    await fake?.close();
    await database?.drop();
  });

  it('lets another instance take the conversation over within 5 s, with the interrupted notice once', async () => {
    database = await freshDatabase(DATABASE_URL!);
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: REDIS_URL!,
      ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      // The refused sends below are polls, not a caller's sends.
      SEND_RATE_PER_MINUTE: '100000',
    };
    fake = await startFakeOpenAI();
    const a = await startServerProcess(env);
    const b = await startServerProcess(env);
    const apiA = await signedClient(a.url, 'demo');
    const apiB = await signedClient(b.url, 'demo');
    const { appId } = await installFakeChatbot(apiA, fake.baseUrl);
    const token = await openConversation(apiA, appId);

    // The reply on A streams a piece, then never finishes: A dies mid-stream.
    fake.chat({ kind: 'reply', text: ['Half an ans'], stall: true });
    const pending = apiA('POST', `/v1/conversations/${token}`, { content: 'Before the crash' }).catch(
      (err: unknown) => err,
    );
    await expect.poll(() => fake!.requests.length).toBe(1);
    await crash(a);
    const diedAt = Date.now();
    expect(await pending).toBeInstanceOf(Error);

    // Sends on B answer 409 (nothing stored) while A's lease is live, then B takes the conversation.
    fake.chat({ kind: 'reply', text: ['Here you ', 'are.'] });
    const busy: unknown[] = [];
    let sent: { data: { role: string; message: string | null }[] } | undefined;
    while (!sent && Date.now() - diedAt < TAKEOVER_DEADLINE_MS) {
      sent = await apiB('POST', `/v1/conversations/${token}`, { content: 'Again' }).catch((err: Error) => {
        expect(err.message).toMatch(/→ 409 /);
        busy.push(err);
        return undefined;
      });
      if (!sent) await new Promise((r) => setTimeout(r, 100)); // the poll's interval
    }
    const tookMs = Date.now() - diedAt;
    console.log(
      `instance B took the conversation over ${tookMs} ms after A died (${busy.length} sends refused)`,
    );
    expect(sent, `no takeover within ${TAKEOVER_DEADLINE_MS} ms`).toBeDefined();
    expect(sent!.data.map((m) => [m.role, m.message])).toEqual([
      ['user', 'Again'],
      ['assistant', 'Here you are.'],
    ]);
    // After the app's greeting, if it has one; the notice once, whatever the refused sends.
    const stored = await storedMessages(apiB, token);
    expect(stored.slice(-4)).toEqual([
      ['user', 'Before the crash'],
      ['error', 'The reply was interrupted (the server stopped).'],
      ['user', 'Again'],
      ['assistant', 'Here you are.'],
    ]);
    expect(stored.filter(([role]) => role === 'error')).toHaveLength(1);
    fake.expectNoFailures();
  }, 180_000);
});
