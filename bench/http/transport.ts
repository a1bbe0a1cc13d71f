/**
 * The provider call's transport alone: cd bench && node --import tsx http/transport.ts
 *   TRANSPORT_CALLS   streamed calls per cell (default 1000)
 *   TRANSPORT_ROUNDS  rounds (default 8); the sides alternate, which goes first alternating too
 *   TRANSPORT_CHUNKS  text chunks of an answer (default 5, the fake provider's; e.g. 21, a realistic answer)
 *   TRANSPORT_PACING_MS  ms between the provider's chunks (default none: all at once); with it each chunk is
 *                     read alone, as from a real model (then use a few calls: 105 chunks 2 ms apart take 0.2 s)
 *
 * One model turn (`SdkChatModel.stream` over the OpenAI-compatible package, read to its finish) against the
 * bench's fake provider, which runs in a child process so its CPU is not counted; this process's CPU per
 * call, one call at a time, for two transports on the same kind of undici `Agent`:
 *   - `fetch`: undici's `fetch` after the guard's address check, as the outbound guard sent before
 *     docs/adr/0047-a-lean-reply-path.md (the baseline);
 *   - `guard`: the outbound guard's `fetch` (its own undici handler since ADR 0047's amendment, a `Response`
 *     fed from the socket);
 *   - `direct`: `OpenAiChatModel` (docs/adr/0052-openai-protocol-read-directly.md), the OpenAI protocol read
 *     without the AI SDK, over the guard's `fetch`;
 *   - `raw`: no AI SDK: the same request through the guard's `fetch`, its SSE lines split and parsed with
 *     `JSON.parse`: the floor, so the AI SDK's own share of a call (request building, its stream stages, the
 *     chunks' zod validation) is `guard` minus `raw`.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { OpenAiChatModel } from '@llmor/server/modules/models/providers/openai-chat';
import { SdkChatModel } from '@llmor/server/modules/models/providers/sdk';
import type { ChatModel } from '@llmor/server/modules/models/providers/types';
import { parseAllowList } from '@llmor/server/platform/outbound/addresses';
import { OutboundGuard } from '@llmor/server/platform/outbound/guard';
import { Agent, fetch as undiciFetch } from 'undici';
import { directStreamBody, startFakeProvider } from '../lib/fake-provider';
import { median, printTable } from '../lib/load';

if (process.env.TRANSPORT_PROVIDER) {
  const provider = await startFakeProvider();
  provider.chunks = Number(process.env.TRANSPORT_CHUNKS ?? provider.chunks);
  const pacing = Number(process.env.TRANSPORT_PACING_MS ?? 0);
  if (pacing > 0) provider.pacing = { firstMs: 0, chunkMs: pacing };
  process.send?.({ url: provider.url });
  process.on('disconnect', () => void provider.close().then(() => process.exit(0)));
} else {
  const CALLS = Number(process.env.TRANSPORT_CALLS ?? 1000);
  const ROUNDS = Number(process.env.TRANSPORT_ROUNDS ?? 8);
  const child = fork(fileURLToPath(import.meta.url), {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, TRANSPORT_PROVIDER: '1' },
  });
  const { url } = await new Promise<{ url: string }>((resolve) => child.once('message', resolve as never));

  const guard = new OutboundGuard({ allow: parseAllowList('127.0.0.1').rules });
  const agent = new Agent();
  const beforeFetch: typeof fetch = async (input, init = {}) => {
    const target = new URL(input instanceof Request ? input.url : input);
    await guard.addresses(target.hostname, Number(target.port));
    return (await undiciFetch(target, {
      ...(init as object),
      headers: init.headers as never,
      body: init.body as never,
      redirect: 'manual',
      dispatcher: agent,
    })) as unknown as Response;
  };
  const model = (transport: typeof fetch) =>
    new SdkChatModel(
      createOpenAICompatible({
        name: 'bench',
        baseURL: url,
        apiKey: 'sk-bench',
        fetch: transport,
        includeUsage: true,
      }).chatModel('fake'),
      { label: 'bench' },
    );
  const turn = (chat: ChatModel) => async (content: string) => {
    let text = '';
    for await (const event of chat.stream({ messages: [{ role: 'user', content }] })) {
      if (event.type === 'text') text += event.text;
    }
    return text;
  };
  /** The provider read without the AI SDK: SSE lines split and parsed, the deltas joined. */
  const raw = async (content: string) => {
    const res = await guard.fetch(`${url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench' },
      body: JSON.stringify(directStreamBody(content)),
    });
    let text = '';
    let rest = '';
    const decoder = new TextDecoder();
    for await (const bytes of res.body!) {
      const lines = (rest + decoder.decode(bytes, { stream: true })).split('\n');
      rest = lines.pop()!;
      for (const line of lines) {
        if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
        text += JSON.parse(line.slice(6)).choices[0]?.delta?.content ?? '';
      }
    }
    return text;
  };
  const direct = new OpenAiChatModel({
    baseURL: url,
    apiKey: 'sk-bench',
    model: 'fake',
    fetch: guard.fetch,
    label: 'bench',
  });
  const sides = {
    fetch: turn(model(beforeFetch)),
    guard: turn(model(guard.fetch)),
    direct: turn(direct),
    raw,
  };

  /** CPU µs of this process per streamed call. */
  async function cell(side: keyof typeof sides, calls: number): Promise<number> {
    const before = process.cpuUsage();
    for (let i = 0; i < calls; i++) {
      if (!(await sides[side](`hello ${i}`))) throw new Error(`${side}: no answer`);
    }
    const { user, system } = process.cpuUsage(before);
    return (user + system) / calls;
  }

  const names = ['fetch', 'guard', 'direct', 'raw'] as const;
  for (const side of names) await cell(side, CALLS); // warm-up
  const results = {
    fetch: [] as number[],
    guard: [] as number[],
    direct: [] as number[],
    raw: [] as number[],
  };
  const ratios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 ? [...names].reverse() : names;
    for (const side of order) results[side].push(await cell(side, CALLS));
    ratios.push(results.guard[round]! / results.fetch[round]!);
  }
  child.disconnect();
  await Promise.all([guard.close(), agent.close()]);

  console.log(
    `\nCPU per streamed provider call (${process.env.TRANSPORT_CHUNKS ?? 5} text chunks${process.env.TRANSPORT_PACING_MS ? `, ${process.env.TRANSPORT_PACING_MS} ms apart` : ''}), ${ROUNDS} rounds × ${CALLS} calls, one at a time\n`,
  );
  printTable([
    ['transport', 'CPU µs / call (median)', 'each round'],
    [
      'undici fetch (before)',
      median(results.fetch).toFixed(0),
      results.fetch.map((v) => v.toFixed(0)).join(' '),
    ],
    [
      'guard: undici request (after)',
      median(results.guard).toFixed(0),
      results.guard.map((v) => v.toFixed(0)).join(' '),
    ],
    ['ratio after / before', median(ratios).toFixed(2), ratios.map((v) => v.toFixed(2)).join(' ')],
    [
      'OpenAiChatModel over the guard (ADR 0052: no AI SDK)',
      median(results.direct).toFixed(0),
      results.direct.map((v) => v.toFixed(0)).join(' '),
    ],
    [
      'no AI SDK: the guard, SSE split + JSON.parse',
      median(results.raw).toFixed(0),
      results.raw.map((v) => v.toFixed(0)).join(' '),
    ],
  ]);
}
