import { describe, expect, it } from 'vitest';
import { curlExamples, openAiBaseUrl } from './lib';

const opts = {
  origin: 'https://llmor.example',
  token: 'llmor_abcDEF123-_xyz',
  vendorKey: 'acme',
  appId: 42,
};

describe('curlExamples', () => {
  it('opens a conversation exactly as the client page shows it', () => {
    expect(curlExamples(opts).openConversation).toBe(
      `curl -X POST https://llmor.example/v1/conversations -H 'X-VendorToken: llmor_abcDEF123-_xyz' -H 'X-Vendor: acme' -H 'content-type: application/json' -d '{"vendor_app_id":42,"vendor_channel":"api"}'`,
    );
  });

  it('sends a message to the conversation it opens, its token cut out of the answer', () => {
    const [open, send] = curlExamples(opts).sendMessage.split('\n');
    expect(open).toMatch(/^CONVERSATION=\$\(curl -s -X POST https:\/\/llmor\.example\/v1\/conversations /);
    expect(send).toBe(
      `curl -X POST https://llmor.example/v1/conversations/$CONVERSATION -H 'X-VendorToken: llmor_abcDEF123-_xyz' -H 'X-Vendor: acme' -H 'content-type: application/json' -d '{"content":"Hello!"}'`,
    );
    // The sed expression picks the conversation's token out of a one-line JSON answer.
    const sed = /sed -E 's\/(.*)\/\\1\/'/.exec(open!)![1]!;
    const answer = `{"data":{"id":3,"token":"AbC-123_xyz","messages":[{"message":"say \\"token\\":\\"no\\""}]}}`;
    expect(answer.replace(new RegExp(sed), '$1')).toBe('AbC-123_xyz');
  });

  it('points the OpenAI example at /v1/openai with the token as Bearer', () => {
    expect(curlExamples(opts).openai).toContain(
      `https://llmor.example/v1/openai/chat/completions -H 'Authorization: Bearer llmor_abcDEF123-_xyz'`,
    );
    expect(openAiBaseUrl(opts.origin)).toBe('https://llmor.example/v1/openai');
  });
});
