/** The message catalogue's reader, a chunk of its own (loaded by `lib/form`). */
export { localize } from '@llmor/contracts';
