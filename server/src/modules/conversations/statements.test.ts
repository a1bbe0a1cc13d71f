import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Client,
  createTestServer,
  recordStatements,
  signedInVendor,
  type TestServer,
} from '../../test/harness';
import type { AppRow } from '../completion/repo';
import {
  finish,
  makeChatApp,
  makeConversation,
  makeVendorModel,
  ScriptedModel,
  text,
} from '../completion/testing';
import type { VendorRow } from '../vendors/repo';
import { insertMessages } from './repo';

/**
 * The SQL statements one console send may run (bench/README.md "conversation", docs/adr/0026 "Amended",
 * docs/adr/0046): the vendor of `X-Vendor` with the conversation, its app, model and plan; the request's
 * reservation with the lease, the user's message, the context and the tools; the answer with its usage,
 * its tokens and the lease's release. A send that runs more fails here.
 */
const SEND_STATEMENT_BUDGET = 3;

let server: TestServer;
let vendor: VendorRow;
let client: Client;
let app: AppRow;

beforeAll(async () => {
  server = await createTestServer({
    engine: { resolveModel: () => new ScriptedModel([[text('Fine.'), finish()]]) },
  });
  ({ vendor, client } = await signedInVendor(server, 'member'));
  app = await makeChatApp(server.ctx, vendor, { model: await makeVendorModel(server.ctx, vendor) });
});
afterAll(() => server?.close());

async function statementsOfSend(token: string): Promise<string[]> {
  // The session is cached for a few seconds: a read just before finds it in memory, as a client's sends do.
  expect((await client.get(`/v1/conversations/${token}?limit=1`)).statusCode).toBe(200);
  const recording = recordStatements(server.ctx.db);
  try {
    const res = await client.post(`/v1/conversations/${token}`, { content: 'How are you?' });
    expect(res.statusCode, res.body).toBe(200);
  } finally {
    recording.stop();
  }
  return recording.statements;
}

describe('what a send costs the database', () => {
  it(`runs at most ${SEND_STATEMENT_BUDGET} statements, however long the conversation`, async () => {
    const fresh = await makeConversation(server.ctx, app);
    await statementsOfSend(fresh.token); // the session's first use reads it; later sends find it in memory
    const second = await statementsOfSend(fresh.token);
    expect(second.length, second.join('\n')).toBeLessThanOrEqual(SEND_STATEMENT_BUDGET);

    const long = await makeConversation(server.ctx, app);
    await insertMessages(
      server.ctx.db,
      vendor.id,
      long.id,
      Array.from({ length: 1_000 }, (_, i) => ({
        role: i % 2 ? 'assistant' : 'user',
        creator: 'user',
        message: `m${i}`,
      })),
    );
    const atLength = await statementsOfSend(long.token);
    expect(atLength.length, atLength.join('\n')).toBe(second.length);
  });
});
