import type { ConversationWithMessages, SendMessageBody } from '@llmor/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { apiRequest, type RequestOptions } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';
import { conversationKey } from './getConversation';

/** Header naming this browser's relay socket, so it gets `input_async: false` (contracts/src/relay.ts). */
export const RELAY_SOCKET_HEADER_NAME = 'X-Relay-Socket';

/**
 * POST /v1/conversations/{token} {content} → {conversation, data: messages}; the default error handler
 * is skipped (spec 01 §7): the view shows failures as an error-role message. A 504 means the reply goes
 * on over the relay. `X-Relay-Socket` names this browser's socket, so it gets `input_async: false`.
 */
export function sendMessage(
  token: string,
  content: string,
  socketId?: string,
  signal?: AbortSignal,
): Promise<ConversationWithMessages> {
  const body: SendMessageBody = { content };
  const options: RequestOptions = {
    signal,
    method: 'POST',
    body,
    headers: socketId ? { [RELAY_SOCKET_HEADER_NAME]: socketId } : undefined,
  };
  return apiRequest<ConversationWithMessages>(`/v1/conversations/${encodeURIComponent(token)}`, options);
}

/** Sends a message; the answer (the stored conversation) also refreshes its cached copy. */
export function useSendMessage() {
  const queryClient = useQueryClient();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: (
      { token, content, socketId }: { token: string; content: string; socketId?: string },
      signal,
    ) => sendMessage(token, content, socketId, signal),
    onSuccess: (answer, { token }) => queryClient.setQueryData(conversationKey(token), answer),
  });
}
