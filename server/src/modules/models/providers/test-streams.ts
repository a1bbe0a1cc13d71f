/** Test helpers shared by the provider tests: drain a stream, catch its ProviderError, a tool and a prompt. */
import { type ChatRequest, type ChatStreamEvent, ProviderError, type ToolSpec } from './types';

export async function collect(stream: AsyncIterable<ChatStreamEvent>): Promise<ChatStreamEvent[]> {
  const out: ChatStreamEvent[] = [];
  for await (const e of stream) out.push(e);
  return out;
}

export async function failure(stream: AsyncIterable<ChatStreamEvent>): Promise<ProviderError> {
  try {
    await collect(stream);
  } catch (err) {
    if (err instanceof ProviderError) return err;
    throw err;
  }
  throw new Error('expected the stream to fail');
}

export const weatherTool: ToolSpec = {
  name: 'get_weather',
  description: 'Current weather of a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

export const hello: ChatRequest = {
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Hello there' },
  ],
};
