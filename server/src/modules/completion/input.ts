import { DEFAULT_LOCALE, isPlainObject, LOCALE_FALLBACKS, type Locale } from '@llmor/contracts';
import type { MessageRow } from '../conversations/repo';
import type { ChatMessage, ToolCall } from '../models/providers/types';
import type { Passage } from './types';

/**
 * Builds model input from an app's parameters (keys owned by the apps catalogue):
 * chatbot/generic — `system_prompt`, `sample_conversation` [{role, message}], `greeting` {locale: text},
 * `temperature`; oneshot — `prompt_template` with `{{input}}` and `{{target_language}}`, `temperature`.
 */

type Params = Record<string, unknown>;

const asParams = (value: unknown): Params => (isPlainObject(value) ? value : {});

export function temperatureOf(parameters: unknown): number | undefined {
  const t = asParams(parameters).temperature;
  return typeof t === 'number' && Number.isFinite(t) ? t : undefined;
}

/** The greeting in `locale` (following the fallback chain), else in the default locale; null if none. */
export function greetingFor(parameters: unknown, locale: string | undefined): string | null {
  const greeting = asParams(parameters).greeting;
  if (typeof greeting === 'string') return greeting.trim() ? greeting : null;
  const texts = asParams(greeting);
  const chain: string[] = [];
  if (locale) chain.push(locale, ...(LOCALE_FALLBACKS[locale as Locale] ?? []));
  chain.push(DEFAULT_LOCALE);
  for (const key of chain) {
    const text = texts[key];
    if (typeof text === 'string' && text.trim()) return text;
  }
  return null;
}

function sampleConversation(parameters: Params): ChatMessage[] {
  const sample = parameters.sample_conversation;
  if (!Array.isArray(sample)) return [];
  const out: ChatMessage[] = [];
  for (const entry of sample) {
    const e = asParams(entry);
    if ((e.role === 'user' || e.role === 'assistant') && typeof e.message === 'string') {
      out.push({ role: e.role, content: e.message });
    }
  }
  return out;
}

/** At most this many stored messages are read for a reply (the newest). */
export const HISTORY_MAX_MESSAGES = 200;
/** Estimated tokens of history a reply sends at most (a conservative share of common context windows). */
const HISTORY_TOKEN_BUDGET = 16_000;

/** What a reply's prompt reads of a stored message (the context is read with only these). */
export type ContextMessage = Pick<
  MessageRow,
  'id' | 'role' | 'message' | 'functionCalls' | 'functionResponse'
>;

/** A message's tool calls as the prompt carries them, as text ('' without any). */
export function functionCallsText(m: ContextMessage): string {
  return Array.isArray(m.functionCalls) && m.functionCalls.length ? JSON.stringify(m.functionCalls) : '';
}

/** A cheap token estimate (~4 characters a token, plus a little per message), no tokenizer needed. */
function estimatedTokens(m: ContextMessage): number {
  return Math.ceil(((m.message?.length ?? 0) + functionCallsText(m).length) / 4) + 4;
}

/**
 * The newest messages that fit the token budget, oldest first; the newest is always kept. The model's
 * context is what it was given, not the whole history, so a reply's cost does not grow with the conversation.
 */
export function contextWindow<M extends ContextMessage>(history: M[], budget = HISTORY_TOKEN_BUDGET): M[] {
  let used = 0;
  let start = history.length;
  while (start > 0) {
    const cost = estimatedTokens(history[start - 1]!);
    if (start < history.length && used + cost > budget) break;
    used += cost;
    start -= 1;
  }
  return history.slice(start);
}

/**
 * Stored messages → model messages: user, assistant (with the calls that were answered) and tool
 * messages; error and system messages are not shown to the model. Calls without an answer, and
 * answers without their call, are dropped so providers accept the sequence.
 */
function historyToChat(history: ContextMessage[]): ChatMessage[] {
  const answered = new Set(
    history.filter((m) => m.role === 'tool' && m.functionResponse).map((m) => m.functionResponse!),
  );
  const callNames = new Map<string, string>();
  const out: ChatMessage[] = [];
  for (const m of history) {
    if (m.role === 'user') out.push({ role: 'user', content: m.message ?? '' });
    else if (m.role === 'assistant') {
      const calls = (Array.isArray(m.functionCalls) ? (m.functionCalls as ToolCall[]) : []).filter((c) =>
        answered.has(c.id),
      );
      for (const c of calls) callNames.set(c.id, c.name);
      const content = m.message ?? '';
      if (calls.length) out.push({ role: 'assistant', content, toolCalls: calls });
      else if (content) out.push({ role: 'assistant', content });
    } else if (m.role === 'tool' && m.functionResponse && callNames.has(m.functionResponse)) {
      out.push({
        role: 'tool',
        toolCallId: m.functionResponse,
        name: callNames.get(m.functionResponse)!,
        content: m.message ?? '',
      });
    }
  }
  return out;
}

/** chatbot / generic: system prompt, sample conversation, then the stored history (ending with the user's message). */
export function chatInput(appParameters: unknown, history: ContextMessage[]): ChatMessage[] {
  const params = asParams(appParameters);
  const out: ChatMessage[] = [];
  const system = params.system_prompt;
  if (typeof system === 'string' && system.trim()) out.push({ role: 'system', content: system });
  out.push(...sampleConversation(params), ...historyToChat(history));
  return out;
}

/**
 * The caller's instructions for one reply (ADR 0024) as a system message right after the leading system
 * messages — the app's prompt, or a silicon script's `system` — so the model reads the app's prompt first
 * and the caller's cannot replace it.
 */
export function withInstructions(messages: ChatMessage[], instructions: string | undefined): ChatMessage[] {
  if (!instructions?.trim()) return messages;
  const firstOther = messages.findIndex((m) => m.role !== 'system');
  const at = firstOther === -1 ? messages.length : firstOther;
  return [...messages.slice(0, at), { role: 'system', content: instructions }, ...messages.slice(at)];
}

/** oneshot: the template filled with the user's message; one turn, no history. */
export function oneshotInput(
  appParameters: unknown,
  conversationParameters: unknown,
  input: string,
): ChatMessage[] {
  const params = asParams(appParameters);
  const template = typeof params.prompt_template === 'string' ? params.prompt_template : '';
  const conv = asParams(conversationParameters);
  const language =
    typeof conv.target_language === 'string'
      ? conv.target_language
      : typeof params.target_language === 'string'
        ? params.target_language
        : '';
  const content = template.trim()
    ? template.replace(/\{\{\s*(input|target_language)\s*\}\}/g, (_m, key: string) =>
        key === 'input' ? input : language,
      )
    : input;
  return [{ role: 'user', content }];
}

const TOP_K_DEFAULT = 4;

/** Retrieval settings of a chatbot (`use_datastores`, `datastores` names, `top_k`); null when off. */
export function retrievalOf(parameters: unknown): { names: string[] | null; topK: number } | null {
  const params = asParams(parameters);
  if (params.use_datastores !== true) return null;
  const raw = params.datastores;
  const names = (Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : [])
    .filter((n): n is string => typeof n === 'string')
    .map((n) => n.trim())
    .filter(Boolean);
  const k = params.top_k;
  const topK = typeof k === 'number' && Number.isInteger(k) && k > 0 ? Math.min(k, 50) : TOP_K_DEFAULT;
  return { names: names.length ? names : null, topK };
}

/** The passages as context for the model, appended to the (first) system message. */
export function withPassages(messages: ChatMessage[], passages: Passage[]): ChatMessage[] {
  if (passages.length === 0) return messages;
  const context = [
    "Passages from the app's datastores that may help to answer (cite them only if they are relevant):",
    ...passages.map((p, i) => `[${i + 1}] (${p.datastore} #${p.id}) ${p.text}`),
  ].join('\n\n');
  const [first, ...rest] = messages;
  if (first?.role === 'system')
    return [{ role: 'system', content: `${first.content}\n\n${context}` }, ...rest];
  return [{ role: 'system', content: context }, ...messages];
}
