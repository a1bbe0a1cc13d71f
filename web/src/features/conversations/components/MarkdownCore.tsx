// The heavy part of Markdown (react-markdown + remark plugins), loaded on demand by Markdown.tsx.
import type { ComponentProps } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkBreaks from 'remark-breaks';
import remarkGfm from 'remark-gfm';

const plugins = [remarkGfm, remarkBreaks];

const components: Components = {
  // Links open in a new tab and do not hand over the console's window.
  a: ({ node: _node, ...props }: ComponentProps<'a'> & { node?: unknown }) => (
    <a {...props} target="_blank" rel="noopener noreferrer" />
  ),
};

/** Markdown with GitHub extensions and hard line breaks; raw HTML is shown as text, never rendered. */
export function MarkdownCore({ text }: { text: string }) {
  return (
    <ReactMarkdown remarkPlugins={plugins} components={components}>
      {text}
    </ReactMarkdown>
  );
}
