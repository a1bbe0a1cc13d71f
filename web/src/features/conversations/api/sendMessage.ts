import { type MessageSent, RELAY_SOCKET_HEADER, type SendMessageBody } from '@llmor/contracts';
import { apiRequest, type RequestOptions } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';

/**
 * POST /v1/conversations/{token} {content} → {conversation, data: the messages it added}; the data layer's
 * default report is skipped (docs/reference/api.md): the view shows failures as an error-role message. A 504 means the reply goes
 * on over the relay. `X-Relay-Socket` names this browser's socket, so it gets `input_async: false`.
 */
function sendMessage(
  token: string,
  content: string,
  socketId?: string,
  signal?: AbortSignal,
): Promise<MessageSent> {
  const body: SendMessageBody = { content };
  const options: RequestOptions = {
    signal,
    method: 'POST',
    body,
    headers: socketId ? { [RELAY_SOCKET_HEADER]: socketId } : undefined,
  };
  return apiRequest<MessageSent>(`/v1/conversations/${encodeURIComponent(token)}`, options);
}

/** Sends a message; the view adds the answer's messages to those it shows. */
export function useSendMessage() {
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: (
      { token, content, socketId }: { token: string; content: string; socketId?: string },
      signal,
    ) => sendMessage(token, content, socketId, signal),
  });
}
