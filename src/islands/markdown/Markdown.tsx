/** Markdown island: GitHub flavour (tables, task lists, strikethrough, autolinks), no emoji shortcodes, no raw HTML. */
import type { AnchorHTMLAttributes } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import './Markdown.css';

/** Props of the Markdown renderer. */
export interface MarkdownProps {
  /** The Markdown source, e.g. an alert note. A prop, not children: Astro hands islands their children as HTML. */
  readonly source: string;
  /** Extra class on the wrapper. */
  readonly className?: string | undefined;
}

const plugins = [remarkGfm];

// Every link opens in a new tab without handing the opener to the target.
function SafeLink({ node: _node, ...props }: AnchorHTMLAttributes<HTMLAnchorElement> & { node?: unknown }) {
  return <a {...props} target="_blank" rel="noopener noreferrer" />;
}

const components: Components = { a: SafeLink };

/** Renders untrusted Markdown safely: raw HTML is dropped, unsafe URLs are removed by react-markdown's default. */
export function Markdown({ source, className }: MarkdownProps) {
  return (
    <div className={['sg-markdown', className].filter(Boolean).join(' ')}>
      <ReactMarkdown remarkPlugins={plugins} components={components} skipHtml>
        {source}
      </ReactMarkdown>
    </div>
  );
}

export default Markdown;
