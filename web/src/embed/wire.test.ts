import {
  EMBED_CONFIG_NAME,
  EMBED_TOKEN_HEADER,
  EMBED_WIDGET_FILE,
  RELAY_AUTH_KEYS,
  RELAY_SOCKET_HEADER,
  RelayClientEvent,
  RelayMessageType,
  RelayServerEvent,
} from '@llmor/contracts';
import { describe, expect, it } from 'vitest';
import * as wire from './wire';

describe('the widget’s wire names', () => {
  it('are the contracts’', () => {
    expect({ ...wire }).toEqual({
      EMBED_TOKEN_HEADER,
      RELAY_SOCKET_HEADER,
      RELAY_JOIN: RelayClientEvent.join,
      RELAY_AUTH_EMBED_TOKEN: RELAY_AUTH_KEYS.embedToken,
      RELAY_MESSAGE: RelayServerEvent.message,
      COMPLETION_STREAM: RelayMessageType.completionStream,
      COMPLETION_FINISHED: RelayMessageType.completionFinished,
      USER_INPUT: RelayMessageType.userInput,
      EMBED_CONFIG_NAME,
      EMBED_WIDGET_FILE,
    });
  });
});
