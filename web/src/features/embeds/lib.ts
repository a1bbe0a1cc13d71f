import type { EmbedCode } from '@llmor/contracts';
import { embedSnippet } from '@llmor/contracts';

/**
 * Copies text that may still be loading (the token is fetched when asked for). A ClipboardItem takes
 * the promise, so the copy still counts as part of the click (Safari refuses a write after an await);
 * without it the text is awaited and written.
 */
export async function copyText(text: Promise<string>): Promise<void> {
  if (typeof ClipboardItem !== 'undefined' && navigator.clipboard?.write) {
    const blob = text.then((value) => new Blob([value], { type: 'text/plain' }));
    await navigator.clipboard.write([new ClipboardItem({ 'text/plain': blob })]);
  } else await navigator.clipboard.writeText(await text);
}

/** The `<script>` tag to paste into a page. */
export const snippetOf = (code: EmbedCode) => embedSnippet(code.script_url);
