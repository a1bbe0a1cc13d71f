import type { ConversationWithMessages, SendMessageBody } from '@llmor/contracts';
import { apiRequest, type RequestOptions } from '../../../lib/api/client';

/** Header naming this browser's relay socket, so it gets `input_async: false` (contracts/src/relay.ts). */
export const RELAY_SOCKET_HEADER_NAME = 'X-Relay-Socket';

/**
 * POST /v1/conversations/{token} {content} → {conversation, data: messages}; the default error handler
 * is skipped (spec 01 §7): the view shows failures as an error-role message. A 504 means the reply goes
 * on over the relay.
 *
 * `headers` is read by apiRequest once it supports extra headers (see the report); until then the header
 * is not sent and the own socket is treated like any other (input_async true), which the view handles.
 */
export function sendMessage(
  token: string,
  content: string,
  socketId?: string,
): Promise<ConversationWithMessages> {
  const body: SendMessageBody = { content };
  const options: RequestOptions & { headers?: Record<string, string> } = {
    method: 'POST',
    body,
    skipDefaultErrorHandler: true,
    headers: socketId ? { [RELAY_SOCKET_HEADER_NAME]: socketId } : undefined,
  };
  return apiRequest<ConversationWithMessages>(`/v1/conversations/${encodeURIComponent(token)}`, options);
}
