/**
 * Markdown loaded on demand: react-markdown and its parser (about 48 KB gzip) come after the page's first JavaScript.
 * Until they arrive the source shows as plain text with its line breaks, so the words are readable at once.
 */
import { lazy, Suspense } from 'react';
import type { MarkdownProps } from './Markdown.tsx';

const Markdown = lazy(() => import('./Markdown.tsx').then((module) => ({ default: module.Markdown })));

/** Renders Markdown like `Markdown`, its code loaded when first drawn. */
export function LazyMarkdown(props: MarkdownProps) {
  const plain = (
    <div className={['sg-markdown', props.className].filter(Boolean).join(' ')}>
      <p style={{ whiteSpace: 'pre-wrap' }}>{props.source}</p>
    </div>
  );
  return (
    <Suspense fallback={plain}>
      <Markdown {...props} />
    </Suspense>
  );
}
