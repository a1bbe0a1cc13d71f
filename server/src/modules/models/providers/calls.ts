/**
 * What every provider call shares, whichever client makes it (the AI SDK's packages in `sdk.ts`, the
 * OpenAI protocol read directly in `openai-chat.ts`): the deadline, and failures in words a console user can
 * act on. Loads no SDK.
 */
import { outboundRefusal } from '../../../platform/outbound/guard';
import { type ModelCallSpan, startModelCallSpan } from '../../../platform/tracing';
import { type ChatRequest, ProviderError, type ProviderErrorKind, textOf } from './types';

export const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * What a provider said in an error body: its own message, and a kind when the status alone would
 * misname it (Gemini answers a wrong API key with HTTP 400). Any other text in the body is never
 * shown (ADR 0020).
 */
interface ProviderErrorBody {
  message?: string;
  kind?: HttpErrorKind;
}
/** The kinds an HTTP error answer can be. */
type HttpErrorKind = Extract<ProviderErrorKind, 'auth' | 'rate_limit' | 'unavailable' | 'bad_request'>;
export type ErrorBodyReader = (body: unknown) => ProviderErrorBody;

/** How a call names its provider in messages and what those messages must never contain. */
export interface CallLabel {
  /** Shown in messages ("OpenAI", "Anthropic", "the server at http://…"). */
  label: string;
  /** Values that must never appear in an error message (the API key). */
  secrets?: string[];
  /** Reads the provider's error body (default: `{"error": {"message": …}}`, OpenAI's shape). */
  readError?: ErrorBodyReader;
}

/** A chat turn's span when tracing is on (docs/adr/0040-traces.md), under the reply's. */
export function chatSpan(request: ChatRequest, provider: string, model: string): ModelCallSpan | undefined {
  return startModelCallSpan(request.trace, {
    operation: 'chat',
    provider,
    model,
    temperature: request.temperature,
    maxTokens: request.maxTokens,
    input: () => request.messages,
  });
}

/** `{"error": {"message": …}}`: OpenAI, Anthropic, Groq, DeepSeek and any OpenAI-compatible server. */
export const readOpenAiError: ErrorBodyReader = (body) => ({
  message: textOf((body as { error?: { message?: unknown } } | null)?.error?.message),
});

function redact(text: string, secrets: string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join('***');
  return out.length > 300 ? `${out.slice(0, 300)}…` : out;
}

/** An error body's text as JSON, or undefined (an HTML page, a banner: never quoted). */
export function jsonBody(text: string | undefined): unknown {
  try {
    return JSON.parse(text ?? '');
  } catch {
    return undefined;
  }
}

function statusKind(status: number): HttpErrorKind {
  if (status === 401 || status === 403) return 'auth';
  if (status === 429) return 'rate_limit';
  if (status >= 500) return 'unavailable';
  return 'bad_request';
}

/** An HTTP error answer (status ≥ 400) with its body parsed as JSON when it was. */
export function httpFailure(status: number, body: unknown, opts: CallLabel): ProviderError {
  const said = (opts.readError ?? readOpenAiError)(body);
  const detail = said.message
    ? `: ${redact(said.message, opts.secrets ?? [])}`
    : `. The provider answered HTTP ${status} without an error message.`;
  const kind = said.kind ?? statusKind(status);
  const what = {
    auth: `rejected the API key (HTTP ${status})`,
    rate_limit: 'is rate-limiting requests',
    unavailable: `is unavailable (HTTP ${status})`,
    bad_request: `refused the request (HTTP ${status})`,
  }[kind];
  return new ProviderError(kind, `${opts.label} ${what}${detail}`, status);
}

export const unreadable = (opts: CallLabel) =>
  new ProviderError('bad_response', `${opts.label} sent a response that could not be read.`);

/**
 * A failure that is not an HTTP error answer → a ProviderError: the outbound guard's refusal, a network
 * error, an error object the provider sent inside an open stream, else an answer that could not be read.
 */
export function callFailure(err: unknown, opts: CallLabel): ProviderError {
  if (err instanceof ProviderError) return err;
  const refused = outboundRefusal(err);
  if (refused) return new ProviderError('bad_request', refused.message);
  const code = networkCode(err);
  if (code) return new ProviderError('unavailable', `Could not reach ${opts.label} (${code}).`);
  // An error the provider sent inside an open stream (Bedrock's exception frames carry `{message}`).
  const streamed = streamedErrorMessage(err);
  if (streamed) return streamedFailure(streamed, opts);
  return unreadable(opts);
}

/** The provider stopped an open stream with an error of its own. */
export function streamedFailure(message: string, opts: CallLabel): ProviderError {
  return new ProviderError(
    'unavailable',
    `${opts.label} stopped the answer: ${redact(message, opts.secrets ?? [])}`,
  );
}

/** The message of an error object a provider sent mid-stream (a plain object, not a thrown Error). */
function streamedErrorMessage(err: unknown): string | null {
  if (!err || typeof err !== 'object' || err instanceof Error) return null;
  return textOf((err as { message?: unknown }).message) ?? null;
}

const NETWORK_CODES =
  /^(ECONNREFUSED|ENOTFOUND|ECONNRESET|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|UND_ERR_SOCKET)$/;

/** A network error code anywhere in the cause chain (fetch wraps them: TypeError → cause). */
export function networkCode(err: unknown): string | undefined {
  let e = err as { code?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; e && depth < 5; depth++) {
    if (typeof e.code === 'string' && NETWORK_CODES.test(e.code)) return e.code;
    e = e.cause as typeof e;
  }
  return undefined;
}

/**
 * A tool call's input as the provider streamed it (JSON text) → its arguments, as `streamText` reads it:
 * empty is `{}`, and text that is not JSON stays as it came (the engine answers the model with the error).
 */
export function parsedArguments(input: string): unknown {
  if (input.trim() === '') return {};
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}

/**
 * Runs `fn` with a signal that aborts when the caller's does or when `timeoutMs` passes without `touch()`.
 * Tells apart our timeout from the caller's abort.
 */
export class Deadline {
  readonly controller = new AbortController();
  timedOut = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly onAbort = () => this.controller.abort(this.caller?.reason);

  constructor(
    private readonly ms: number,
    private readonly caller?: AbortSignal,
  ) {
    caller?.addEventListener('abort', this.onAbort, { once: true });
    this.touch();
  }

  /** Starts the wait again: the same timer re-armed (a chunk's cost, so no new timer per chunk). */
  touch(): void {
    if (this.timer) this.timer.refresh();
    else
      this.timer = setTimeout(() => {
        this.timedOut = true;
        this.controller.abort(new Error('timeout'));
      }, this.ms);
  }

  done(): void {
    clearTimeout(this.timer);
    this.caller?.removeEventListener('abort', this.onAbort);
  }

  /**
   * What a failed call throws: our timeout, the caller's own abort reason, else the error as `read` puts
   * it. Recorded on the call's span.
   */
  failure(
    err: unknown,
    opts: CallLabel,
    read: (err: unknown, opts: CallLabel) => ProviderError,
    span: ModelCallSpan | undefined,
  ): unknown {
    const failure = this.timedOut
      ? new ProviderError('timeout', `${opts.label} did not answer within ${this.ms / 1000} s.`)
      : this.caller?.aborted
        ? this.caller.reason
        : read(err, opts);
    span?.fail(failure);
    return failure;
  }

  /** A turn its consumer stopped reading (a `break`): its request must not go on. */
  abandon(span: ModelCallSpan | undefined, reader: { cancel(): Promise<void> } | undefined): void {
    span?.fail(new Error('the caller stopped reading the answer'));
    this.controller.abort(new Error('stopped'));
    reader?.cancel().catch(() => {});
  }
}
