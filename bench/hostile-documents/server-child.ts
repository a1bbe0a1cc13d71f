/**
 * The server under measurement for `hostile-documents/run.ts`, in a process of its own so its RSS, its event
 * loop and its death are its own: the llmor of `bench/lib/llmor.ts` with two vendors. Vendor A (the seeded
 * one) has the lexical embedder and a chatbot with a datastore, where run.ts uploads; vendor B a chatbot on
 * the offline demo model and one conversation, where run.ts sends meanwhile. The seeded admin is a member
 * of both, so one console session speaks for either (`X-Vendor`).
 */

import { findVendorModel } from '@llmor/server/modules/completion/repo';
import { makeChatApp, makeConversation } from '@llmor/server/modules/completion/testing';
import { installModel } from '@llmor/server/modules/models/service';
import { addMember } from '@llmor/server/modules/vendors/repo';
import { makeVendor } from '@llmor/server/test/harness';
import { startBenchServer } from '../lib/llmor';

// Nothing here calls the OpenAI-compatible model startBenchServer installs: vendor B answers offline.
const UNUSED_PROVIDER = 'http://127.0.0.1:9/v1';

const { server, ctx, vendor, admin, app } = await startBenchServer(UNUSED_PROVIDER, {
  SEND_RATE_PER_MINUTE: '1000000',
});
await installModel(ctx, vendor, { modelKey: 'builtin-lexical-embedding', parameters: {}, userId: admin.id });

const neighbour = await makeVendor(ctx, 'Neighbour');
await addMember(ctx.db, neighbour.id, admin.id);
const demo = await installModel(ctx, neighbour, {
  modelKey: 'builtin-offline-demo',
  parameters: {},
  userId: admin.id,
});
const chatbot = await makeChatApp(ctx, neighbour, {
  model: await findVendorModel(ctx.db, neighbour.id, demo.id),
});
const conversation = await makeConversation(ctx, chatbot);

process.send?.({
  type: 'ready',
  url: server.url,
  uploader: { id: vendor.id, key: vendor.key, appId: app.id },
  neighbour: { key: neighbour.key, conversation: conversation.token },
});
// run.ts ends it by disconnecting (or by killing it, when it stopped answering).
process.on('disconnect', () => void server.close().then(() => process.exit(0)));
