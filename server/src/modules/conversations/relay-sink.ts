import { RelayMessageType } from '@llmor/contracts';
import type { RelayHub } from '../../platform/relay/hub';
import type { ReplyEvent, ReplySink } from './ports';
import { presentMessage } from './present';

/**
 * A reply as its conversation's room hears it: each `ReplyEvent` as a relay `message` of
 * contracts/src/relay.ts (`RelayMessageType`), the one place that knows those types. The poster's own
 * socket learns the input was its own (`input_async: false`) and does not hear it again; everyone else
 * learns it came from elsewhere.
 */
export class RelaySink implements ReplySink {
  constructor(
    private readonly relay: RelayHub,
    private readonly token: string,
    /** socket.id of the poster's relay connection, if it sent one. */
    private readonly poster: string | undefined,
  ) {}

  event(event: ReplyEvent): void {
    const { relay, token } = this;
    switch (event.kind) {
      case 'text':
        relay.emit(token, RelayMessageType.completionStream, { chunk: event.chunk });
        break;
      case 'started':
        this.inputAsync(RelayMessageType.completionStarted);
        break;
      case 'user_input':
        relay.emit(
          token,
          RelayMessageType.userInput,
          { message: presentMessage(event.message) },
          { except: this.poster },
        );
        break;
      case 'tool_call_begin': {
        const { id, name, arguments: args } = event;
        relay.emit(token, RelayMessageType.functionCallBegin, { id, name, arguments: args });
        break;
      }
      case 'tool_call_end': {
        const { id, name, result, status } = event;
        relay.emit(token, RelayMessageType.functionCallEnd, { id, name, result, status });
        break;
      }
      case 'iteration':
        relay.emit(token, RelayMessageType.functionCallIteration, { iteration: event.iteration });
        break;
      case 'debug':
        relay.emit(token, RelayMessageType.debug, event.data);
        break;
      case 'custom':
        relay.emit(token, event.type, event.data);
        break;
      case 'finished':
        this.inputAsync(RelayMessageType.completionFinished);
        break;
      case 'ended':
        relay.emit(token, RelayMessageType.completionEnded, {});
        break;
    }
  }

  private inputAsync(
    type: typeof RelayMessageType.completionStarted | typeof RelayMessageType.completionFinished,
  ) {
    this.relay.emit(this.token, type, { input_async: true }, { except: this.poster });
    if (this.poster) this.relay.emit(this.token, type, { input_async: false }, { only: this.poster });
  }
}
