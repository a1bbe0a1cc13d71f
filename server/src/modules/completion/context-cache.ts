import { LRUCache } from 'lru-cache';
import { type ContextMessage, functionCallsText } from './input';
import { type KeptRange, NOTHING_KEPT } from './repo';

/**
 * The reply contexts this process keeps between replies, by conversation: a byte bound, not a count of
 * conversations. 16 MiB keeps ~250 contexts of 199 messages of ~100 characters (the bench's), ~20 of
 * ~2,000: the conversations a busy instance answers at once, small beside the process's own heap. A context
 * larger than the whole bound (199 messages near `MESSAGE_MAX_CHARS`) is not kept and is read as before
 * (docs/adr/0050-reply-context-kept-between-replies.md).
 */
const CONTEXT_CACHE_BYTES = 16 * 1024 * 1024;

/**
 * A conversation's newest messages as the reply that kept them left them, oldest first, at most the history
 * length. The conversation's messages with ids from `from` through `through` were exactly these (`from` is 0
 * when these were all of them); the lease statement counts them again before it trusts them.
 */
export interface KeptContext {
  readonly from: number;
  readonly through: number;
  readonly messages: readonly ContextMessage[];
  readonly bytes: number;
}

/** What the lease statement verifies of a kept context. */
export function keptRange(kept: KeptContext | undefined): KeptRange {
  return kept ? { since: kept.through, from: kept.from, count: kept.messages.length } : NOTHING_KEPT;
}

/** Strings as UTF-16 (V8 may keep them one byte a character; counting two bounds it) plus the object. */
const MESSAGE_OVERHEAD_BYTES = 96;
function sizeOf(m: ContextMessage): number {
  const calls = functionCallsText(m).length;
  return MESSAGE_OVERHEAD_BYTES + 2 * ((m.message?.length ?? 0) + calls + (m.functionResponse?.length ?? 0));
}

/** Only the fields a prompt reads, so a kept message is what the lease statement would have read. */
const promptFields = ({
  id,
  role,
  message,
  functionCalls,
  functionResponse,
}: ContextMessage): ContextMessage => ({
  id,
  role,
  message,
  functionCalls,
  functionResponse,
});

/**
 * Owned by the completion engine: one reply at a time per conversation in a process (its running map), so
 * an entry has one writer. Entries are never changed, only replaced, so a reply holds the one it started
 * from even if it is evicted meanwhile.
 */
export class ContextCache {
  private readonly entries: LRUCache<string, KeptContext>;

  /** `history`: the messages a context holds at most (the lease statement's limit). */
  constructor(
    private readonly history: number,
    maxBytes = CONTEXT_CACHE_BYTES,
  ) {
    this.entries = new LRUCache({ maxSize: maxBytes, sizeCalculation: (entry) => entry.bytes });
  }

  get(vendorId: number, conversationId: number): KeptContext | undefined {
    return this.entries.get(key(vendorId, conversationId));
  }

  /**
   * The context after the lease statement: `kept` followed by `read` when the statement verified it (`read`
   * is then the messages after its `through`), else `read` alone (the newest window); kept for the next
   * reply. `read` is sorted by id (`claimReplyLease`).
   */
  window(
    vendorId: number,
    conversationId: number,
    kept: KeptContext | undefined,
    read: ContextMessage[],
    verified: boolean,
  ): KeptContext {
    const next = this.joined(verified && kept ? kept : EMPTY, read);
    this.entries.set(key(vendorId, conversationId), next);
    return next;
  }

  /**
   * The messages a reply stored after its context (the user's, then the reply's, oldest first) appended to
   * it; the entry is dropped instead if they do not all follow it in order. Another writer's message among
   * them is caught by the next lease statement's count.
   */
  append(vendorId: number, conversationId: number, kept: KeptContext, stored: ContextMessage[]): void {
    let through = kept.through;
    for (const m of stored) {
      if (!(m.id > through)) {
        this.entries.delete(key(vendorId, conversationId));
        return;
      }
      through = m.id;
    }
    this.entries.set(key(vendorId, conversationId), this.joined(kept, stored));
  }

  /** `base` followed by `added` (ids ascending, after `base.through`), the newest `history` kept. */
  private joined(base: KeptContext, added: readonly ContextMessage[]): KeptContext {
    if (added.length === 0) return base;
    const all = [...base.messages, ...added.map(promptFields)];
    const cut = Math.max(0, all.length - this.history);
    let bytes = base.bytes;
    for (const m of added) bytes += sizeOf(m);
    for (let i = 0; i < cut; i++) bytes -= sizeOf(all[i]!);
    const messages = cut ? all.slice(cut) : all;
    // Fewer than `history`: the whole conversation, so the count covers it from its start, and a message
    // committed late below the oldest one is caught too.
    const from = messages.length < this.history ? 0 : messages[0]!.id;
    return { from, through: messages.at(-1)?.id ?? 0, messages, bytes };
  }
}

/** Counted for an entry even when it holds nothing (the cache counts every entry at least one byte). */
const ENTRY_OVERHEAD_BYTES = 64;
const EMPTY: KeptContext = { from: 0, through: 0, messages: [], bytes: ENTRY_OVERHEAD_BYTES };

const key = (vendorId: number, conversationId: number) => `${vendorId}:${conversationId}`;
