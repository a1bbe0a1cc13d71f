import { lazy, Suspense } from 'react';
import classes from './Conversations.module.css';

const Core = lazy(() => import('./MarkdownCore').then((m) => ({ default: m.MarkdownCore })));

/** A message text as Markdown (lazy-loaded); the plain text with its line breaks until it has loaded. */
export function Markdown({ text }: { text: string }) {
  return (
    <div className={classes.markdown}>
      <Suspense fallback={<div style={{ whiteSpace: 'pre-wrap' }}>{text}</div>}>
        <Core text={text} />
      </Suspense>
    </div>
  );
}
